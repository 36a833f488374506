import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/agent-event';
import { EventLog } from '../../tests/support/event-log';
import { ManualScheduler } from '../../tests/support/fake-sync';
import { EventBatcher } from './event-batcher';

const item = { turnId: 'turn-1', stepId: 'step-1', attemptId: 'attempt-1', itemId: 'item-1' };

function setup() {
  const batches: AgentEvent[][] = [];
  const scheduler = new ManualScheduler();
  const batcher = new EventBatcher((events) => batches.push(events), scheduler);
  return { batches, scheduler, batcher };
}

describe('EventBatcher', () => {
  it('hands deltas over once per frame, scheduling a single frame and timer per batch', () => {
    const { batches, scheduler, batcher } = setup();
    const log = new EventLog();
    log.turnStarted('turn-1');
    const deltas = [0, 1, 2].map((index) => log.delta(item, index, `${index}`));
    for (const delta of deltas) batcher.push(delta);
    expect(batches).toEqual([]);
    expect(scheduler.frames).toHaveLength(1);
    expect(scheduler.timers).toHaveLength(1);
    scheduler.runFrames();
    expect(batches).toEqual([deltas]);
    scheduler.runTimers();
    expect(batches).toHaveLength(1);
  });

  it('flushes at once, in order, when a durable event arrives', () => {
    const { batches, batcher } = setup();
    const log = new EventLog();
    log.turnStarted('turn-1');
    const delta = log.delta(item, 0, 'a');
    const approval = log.add({
      type: 'approval/requested',
      turnId: 'turn-1',
      requestId: 'r',
      toolCallId: 'c',
      data: { argumentsHash: 'h', summary: 's', expiresAt: 1 },
    });
    batcher.push(delta);
    batcher.push(approval);
    expect(batches).toEqual([[delta, approval]]);
  });

  it('bounds the queue when no frame ever comes', () => {
    const { batches, batcher } = setup();
    const log = new EventLog();
    log.turnStarted('turn-1');
    for (let index = 0; index < 4_500; index++) batcher.push(log.delta(item, index, 'x'));
    expect(batches.map((batch) => batch.length)).toEqual([2_000, 2_000]);
  });
});
