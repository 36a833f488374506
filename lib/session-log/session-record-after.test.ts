import { describe, expect, it } from 'vitest';
import { EventLog } from '../../tests/support/event-log';
import { sessionRecordAfter } from './session-record-after';

const ids = { turnId: 'turn-1', stepId: 'step-1', attemptId: 'attempt-1' };

describe('sessionRecordAfter', () => {
  it('adds the usage of the appended step/completed events to the row', () => {
    const log = new EventLog('session-1');
    log.add({ type: 'session/created', data: { title: 'Usage' } });
    log.turnStarted('turn-1');
    log.add({ type: 'step/completed', ...ids, data: { finishReason: 'tool-calls', usage: { inputTokens: 10 } } });
    const first = sessionRecordAfter(undefined, 'session-1', log.durable);
    expect(first.usage).toEqual({ inputTokens: 10 });
    const more = log.add({
      type: 'step/completed',
      ...ids,
      stepId: 'step-2',
      data: { finishReason: 'stop', usage: { inputTokens: 12, outputTokens: 3, reasoningTokens: 0 } },
    });
    expect(sessionRecordAfter(first, 'session-1', [more]).usage).toEqual({
      inputTokens: 22,
      outputTokens: 3,
      reasoningTokens: 0,
    });
    expect(first.usage).toEqual({ inputTokens: 10 });
  });

  it('leaves usage out while no step reported any, and keeps an old row without it as it was', () => {
    const log = new EventLog('session-1');
    log.add({ type: 'session/created', data: { title: 'Usage' } });
    log.add({ type: 'step/completed', ...ids, data: { finishReason: 'stop' } });
    expect(sessionRecordAfter(undefined, 'session-1', log.durable)).not.toHaveProperty('usage');
    const oldRow = { sessionId: 'session-1', title: 'Old', createdAt: 1, updatedAt: 2, lastSeq: 2 };
    const renamed = log.add({ type: 'session/renamed', data: { title: 'Older' } });
    expect(sessionRecordAfter(oldRow, 'session-1', [renamed])).not.toHaveProperty('usage');
  });
});
