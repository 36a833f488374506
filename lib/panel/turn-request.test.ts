import { describe, expect, it } from 'vitest';
import { replayLog } from '../state/reduce-events';
import { EventLog } from '../../tests/support/event-log';
import { initialClientState, type ToolCallState } from '../state/client-state';
import {
  canRetryToolCall,
  composedRequest,
  failedStepOf,
  regenerateRequest,
  resendRequest,
  retryRequest,
  stepRetryRequest,
  toolRetryRequest,
} from './turn-request';

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

describe('retrying a failed tool call from its card', () => {
  const call = (toolCallId: string, status: ToolCallState['status'], extra: Partial<ToolCallState> = {}) =>
    ({
      toolCallId,
      turnId: 'turn-1',
      stepId: 'step-1',
      toolName: 'setParameter',
      input: { param: 'speed', value: 3 },
      argumentsPreview: '',
      previewCount: 0,
      status,
      ...extra,
    }) satisfies ToolCallState;

  it('is offered on the latest attempt of a failed or unknown call only, never on a question', () => {
    const toolCalls = {
      done: call('done', 'done'),
      failed: call('failed', 'failed'),
      unknown: call('unknown', 'unknown'),
      retried: call('retried', 'failed'),
      'retried-2': call('retried-2', 'failed', { retryOf: 'retried', attempt: 2 }),
      asked: call('asked', 'failed', { toolName: 'askUser' }),
    };
    const offered = Object.keys(toolCalls).filter((toolCallId) => canRetryToolCall({ toolCalls }, toolCallId));
    expect(offered).toEqual(['failed', 'unknown', 'retried-2']);
  });

  it('asks for a turn that retries the first attempt under a new attempt id, with a note for the model', () => {
    const state = {
      ...initialClientState('s'),
      toolCalls: { first: call('first', 'failed'), second: call('second', 'failed', { retryOf: 'first', attempt: 2 }) },
    };
    const request = toolRetryRequest(state, 'second', 'attempt-3');
    expect(request?.retry).toEqual({
      toolCallId: 'first',
      attemptId: 'attempt-3',
      toolName: 'setParameter',
      input: { param: 'speed', value: 3 },
    });
    expect(request?.text).toMatch(/^I ran your tool call setParameter again, because it failed\./);
    expect(toolRetryRequest(state, 'first', 'attempt-3')).toBeUndefined();
  });
});

describe('retrying a failed model request (Retry step)', () => {
  function failedInRequest(ending: 'stream-error' | 'closed-panel') {
    const log = new EventLog();
    log.add({ type: 'session/created', data: { title: 'Speed' } });
    log.turnStarted('turn-1', 'Set the speed to 12');
    log.stepStarted(ids('turn-1'));
    if (ending === 'stream-error')
      log.add({
        type: 'stream/error',
        turnId: 'turn-1',
        attemptId: 'attempt-turn-1',
        data: { message: 'HTTP 500', code: 'http', retryable: true },
      });
    log.add({ type: 'turn/interrupted', turnId: 'turn-1', data: { reason: 'HTTP 500' } });
    return replayLog(log.sessionId, log.events);
  }

  it('is offered on a turn that ended in a failed model request, naming the failed attempt', () => {
    const state = failedInRequest('stream-error');
    expect(failedStepOf(state, 'turn-1')).toEqual({ turnId: 'turn-1', attemptId: 'attempt-turn-1' });
    expect(stepRetryRequest(state, 'turn-1')).toEqual({
      text: '',
      overBudget: false,
      attachments: [],
      retryStep: { turnId: 'turn-1', attemptId: 'attempt-turn-1' },
    });
  });

  it('is not offered on a turn interrupted otherwise, nor on a completed one', () => {
    expect(stepRetryRequest(failedInRequest('closed-panel'), 'turn-1')).toBeUndefined();
    expect(stepRetryRequest(conversation('completed'), 'turn-2')).toBeUndefined();
    expect(stepRetryRequest(conversation('completed'), 'missing')).toBeUndefined();
  });

  it('regenerates a step retry as the same retry again, after the same failed turn', () => {
    const state = failedInRequest('stream-error');
    const retried = {
      ...state,
      turns: {
        ...state.turns,
        'turn-2': {
          ...state.turns['turn-1']!,
          turnId: 'turn-2',
          userText: '',
          retriesStep: failedStepOf(state, 'turn-1')!,
        },
      },
    };
    expect(regenerateRequest(retried, 'turn-2')).toEqual({
      text: '',
      answerOf: 'turn-2',
      overBudget: false,
      attachments: [],
      retryStep: { turnId: 'turn-1', attemptId: 'attempt-turn-1' },
    });
  });
});
