import { describe, expect, it } from 'vitest';
import { replayLog } from '../state/reduce-events';
import { EventLog } from '../../tests/support/event-log';
import { composedRequest, resendRequest, retryRequest } from './turn-request';

const ids = (turnId: string) => ({ turnId, stepId: `step-${turnId}`, attemptId: `attempt-${turnId}` });

function conversation(lastStatus: 'completed' | 'interrupted') {
  const log = new EventLog();
  log.add({ type: 'session/created', data: { title: 'Speed' } });
  log.turnStarted('turn-1', 'Set the speed to 12');
  log.turnCompleted('turn-1');
  log.turnStarted('turn-2', 'Now 20');
  log.stepStarted(ids('turn-2'));
  if (lastStatus === 'completed') log.turnCompleted('turn-2');
  else log.add({ type: 'turn/interrupted', turnId: 'turn-2', data: { reason: 'Network error' } });
  return replayLog(log.sessionId, log.events);
}

describe('turn requests', () => {
  it('sends what was composed, with its files', () => {
    expect(composedRequest('Hello', [])).toEqual({ text: 'Hello', overBudget: false, attachments: [] });
  });

  it('retries a turn with its own text, in its place', () => {
    expect(retryRequest(conversation('completed'), 'turn-1')).toEqual({
      text: 'Set the speed to 12',
      retryOf: 'turn-1',
      overBudget: false,
      attachments: [],
    });
    expect(retryRequest(conversation('completed'), 'missing')).toBeUndefined();
  });

  it('sends an edited message as a sibling of the edited turn, whatever its outcome', () => {
    expect(resendRequest(conversation('completed'), 'Now 25', 'turn-2')).toEqual({
      text: 'Now 25',
      parentTurnId: 'turn-1',
      overBudget: false,
      attachments: [],
    });
    expect(resendRequest(conversation('interrupted'), 'Now 25', 'turn-2').retryOf).toBeUndefined();
    expect(resendRequest(conversation('interrupted'), 'Again', 'turn-1').parentTurnId).toBeNull();
  });
});
