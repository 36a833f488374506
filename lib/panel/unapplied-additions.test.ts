import { describe, expect, it } from 'vitest';
import { replayLog } from '../state/reduce-events';
import { EventLog } from '../../tests/support/event-log';
import { hasTurnEnded, settleAdditions, type Addition } from './unapplied-additions';

function steer(log: EventLog, commandId: string, state: 'queued' | 'applied' | 'stale' | 'cancelled' | 'rejected') {
  log.add({ type: 'command/state', turnId: 'turn-1', commandId, data: { kind: 'steer', state, text: commandId } });
}

function conversation(build: (log: EventLog) => void) {
  const log = new EventLog();
  log.add({ type: 'session/created', data: { title: 'Records' } });
  log.turnStarted('turn-1');
  build(log);
  return replayLog(log.sessionId, log.events);
}

const addition = (text: string, commandId?: string): Addition => ({
  sessionId: 'session-1',
  turnId: 'turn-1',
  text,
  ...(commandId ? { commandId } : {}),
});

describe('settleAdditions', () => {
  it('sends what the turn never read as the next message once the turn has completed', () => {
    const state = conversation((log) => {
      steer(log, 'late', 'queued');
      log.turnCompleted('turn-1');
      steer(log, 'late', 'stale');
      steer(log, 'after-the-end', 'stale');
    });
    const settled = settleAdditions(state, [
      addition('Queued after the last safe point', 'late'),
      addition('Submitted as the end was being recorded', 'after-the-end'),
      addition('Pressed when the panel already showed the end'),
    ]);
    expect(settled).toEqual({
      nextMessage: [
        'Queued after the last safe point',
        'Submitted as the end was being recorded',
        'Pressed when the panel already showed the end',
      ],
      giveBack: [],
      waiting: [],
    });
  });

  it('gives back to the composer what a stopped or failed turn never read, and sends nothing', () => {
    const stopped = conversation((log) => {
      steer(log, 'queued', 'queued');
      log.add({ type: 'turn/aborted', turnId: 'turn-1', data: { reason: 'Stopped by the user.' } });
      steer(log, 'queued', 'stale');
    });
    expect(settleAdditions(stopped, [addition('Also the tempo', 'queued'), addition('And the key')])).toEqual({
      nextMessage: [],
      giveBack: ['Also the tempo', 'And the key'],
      waiting: [],
    });
    const failed = conversation((log) =>
      log.add({ type: 'turn/interrupted', turnId: 'turn-1', data: { reason: 'The endpoint refused.' } }),
    );
    expect(settleAdditions(failed, [addition('Retry it')]).giveBack).toEqual(['Retry it']);
  });

  it('lets go of what the turn read, or what the user withdrew, and waits while the turn or the steer goes on', () => {
    const state = conversation((log) => {
      steer(log, 'applied', 'applied');
      steer(log, 'withdrawn', 'cancelled');
      steer(log, 'queued', 'queued');
    });
    const queued = addition('Queued', 'queued');
    const onItsWay = addition('Not answered yet', 'on-its-way');
    const settled = settleAdditions(state, [
      addition('Read', 'applied'),
      addition('Withdrawn', 'withdrawn'),
      queued,
      onItsWay,
    ]);
    expect(settled).toEqual({ nextMessage: [], giveBack: [], waiting: [queued, onItsWay] });
  });

  it('sends what was typed while no turn ran (a compaction) as the next message', () => {
    const completed = conversation((log) => log.turnCompleted('turn-1'));
    expect(settleAdditions(completed, [{ sessionId: 'session-1', text: 'After the summary' }])).toEqual({
      nextMessage: ['After the summary'],
      giveBack: [],
      waiting: [],
    });
  });

  it('waits for a turn that is running or paused, and lets go of another conversation’s additions', () => {
    const running = conversation(() => undefined);
    expect(settleAdditions(running, [addition('Faster')]).waiting).toHaveLength(1);
    const paused = conversation((log) =>
      log.add({
        type: 'turn/paused',
        turnId: 'turn-1',
        commandId: 'pause-1',
        data: { reason: 'Paused by the person.' },
      }),
    );
    expect(settleAdditions(paused, [addition('On resume', 'steer-1')]).waiting).toHaveLength(1);
    expect(settleAdditions(running, [{ ...addition('Elsewhere'), sessionId: 'another' }])).toEqual({
      nextMessage: [],
      giveBack: [],
      waiting: [],
    });
  });
});

describe('hasTurnEnded', () => {
  it('is true once the state shows the turn completed, stopped or failed', () => {
    const running = conversation(() => undefined);
    expect(hasTurnEnded(running, 'turn-1')).toBe(false);
    expect(hasTurnEnded(undefined, 'turn-1')).toBe(false);
    const completed = conversation((log) => log.turnCompleted('turn-1'));
    expect(hasTurnEnded(completed, 'turn-1')).toBe(true);
  });
});
