import { describe, expect, it } from 'vitest';
import { replayLog } from '../state/reduce-events';
import { EventLog } from '../../tests/support/event-log';
import { statusText } from './status-text';

const ids = { turnId: 'turn-1', stepId: 'step-1', attemptId: 'attempt-1' };

function runningTurn(): EventLog {
  const log = new EventLog();
  log.add({ type: 'session/created', data: { title: 'Speed' } });
  log.turnStarted('turn-1');
  log.stepStarted(ids);
  return log;
}

describe('statusText', () => {
  it('says nothing when no turn runs', () => {
    const log = new EventLog();
    log.add({ type: 'session/created', data: { title: 'Speed' } });
    expect(statusText(replayLog(log.sessionId, log.events), false)).toBe('');
    log.turnStarted('turn-1');
    log.turnCompleted('turn-1');
    expect(statusText(replayLog(log.sessionId, log.events), false)).toBe('');
  });

  it('says the model is generating as soon as this panel starts a turn', () => {
    const log = new EventLog();
    log.add({ type: 'session/created', data: { title: 'Speed' } });
    expect(statusText(replayLog(log.sessionId, log.events), true)).toBe('Generating…');
    expect(statusText(replayLog(log.sessionId, runningTurn().events), false)).toBe('Generating…');
  });

  it('names the running tool', () => {
    const log = runningTurn();
    log.toolRequested('turn-1', 'step-1', 'call-1');
    log.add({ type: 'tool/started', turnId: 'turn-1', toolCallId: 'call-1', data: {} });
    expect(statusText(replayLog(log.sessionId, log.events), true)).toBe('Running setParameter…');
  });

  it('says what the turn waits for: an approval or an answer', () => {
    const log = runningTurn();
    log.toolRequested('turn-1', 'step-1', 'call-1');
    log.add({
      type: 'approval/requested',
      turnId: 'turn-1',
      requestId: 'approval-1',
      toolCallId: 'call-1',
      data: { argumentsHash: 'h', summary: 'Set speed?', expiresAt: 99_999 },
    });
    expect(statusText(replayLog(log.sessionId, log.events), true)).toBe('Waiting for your approval…');

    const asking = runningTurn();
    asking.add({
      type: 'ask/requested',
      turnId: 'turn-1',
      requestId: 'ask-1',
      data: { question: 'Mode?', answerSchema: { type: 'string' } },
    });
    expect(statusText(replayLog(asking.sessionId, asking.events), true)).toBe('Waiting for your answer…');
  });
});
