import { describe, expect, it, vi } from 'vitest';
import type { AgentEvent, AgentEventDraft } from '../protocol/agent-event';
import type { ToolOutput } from '../protocol/tool-output';
import type { ToolExecutionRequest } from '../protocol/tool-execution-request';
import { replayLog } from '../state/reduce-events';
import { MemoryEventStore } from '../session-log/memory-event-store';
import { countingIds, testRuntime } from '../../tests/support/test-runtime';

const sessionId = 'session-1';

function setup(outputs: ToolOutput[]) {
  const store = new MemoryEventStore();
  const executeTool = vi.fn(async (): Promise<ToolOutput> => outputs.shift() ?? { ok: true });
  const runtime = testRuntime({ store, executeTool, newId: countingIds('id-'), longPollMs: 5 });
  return { store, runtime, executeTool };
}

const started = (turnId: string, retriesToolCall?: string): AgentEventDraft => ({
  type: 'turn/started',
  sessionId,
  turnId,
  time: 1,
  data: { userItemId: `user-${turnId}`, text: turnId, ...(retriesToolCall ? { retriesToolCall } : {}) },
});
const completed = (turnId: string): AgentEventDraft => ({
  type: 'turn/completed',
  sessionId,
  turnId,
  time: 2,
  data: { reason: 'stop' },
});
const call = (toolName: string, input = {}): ToolExecutionRequest => ({
  sessionId,
  turnId: 'turn-1',
  stepId: 'step-1',
  toolCallId: 'call-1',
  toolName,
  input,
});

async function failedFirstAttempt(runtime: ReturnType<typeof setup>['runtime'], toolName: string) {
  await runtime.append(sessionId, [started('turn-1')]);
  expect((await runtime.executeTool(call(toolName, { name: 'speed', value: 3 }))).status).toBe('failed');
  await runtime.append(sessionId, [completed('turn-1'), started('turn-2', 'call-1')]);
}

const retry = (attemptId = 'attempt-2') => ({ sessionId, turnId: 'turn-2', toolCallId: 'call-1', attemptId });

async function log(store: MemoryEventStore): Promise<AgentEvent[]> {
  return store.read(sessionId, 0);
}

describe('retrying a failed tool call', () => {
  it('asks again for a call that is not read-only, then runs it once as a new attempt; the log holds both', async () => {
    const { runtime, store, executeTool } = setup([{ ok: false, error: 'The stage was not ready.' }, { ok: true }]);
    await failedFirstAttempt(runtime, 'setParameter');
    const waiting = await runtime.retryToolCall(retry());
    expect(waiting.status).toBe('waiting');
    const approval = (await log(store)).find((event) => event.type === 'approval/requested');
    expect(approval).toMatchObject({ turnId: 'turn-2', toolCallId: 'attempt-2' });
    expect(approval?.type === 'approval/requested' && approval.data.summary).toMatch(/^Run again \(retry\)/);
    await runtime.decideApproval({
      sessionId,
      turnId: 'turn-2',
      toolCallId: 'attempt-2',
      requestId: approval!.type === 'approval/requested' ? approval!.requestId : '',
      decision: 'allow',
    });
    expect(await runtime.retryToolCall(retry())).toMatchObject({ status: 'completed', output: { ok: true } });
    expect(await runtime.retryToolCall(retry())).toMatchObject({ status: 'completed', replayed: true });
    expect(executeTool).toHaveBeenCalledTimes(2);
    const events = await log(store);
    const retried = events.filter((event) => event.type === 'tool/retried');
    expect(retried).toEqual([
      expect.objectContaining({
        turnId: 'turn-2',
        toolCallId: 'call-1',
        attemptId: 'attempt-2',
        data: { attempt: 2, previousAttemptId: 'call-1' },
      }),
    ]);
    const outcomes = events.filter((event) => event.type === 'tool/failed' || event.type === 'tool/completed');
    expect(outcomes.map((event) => [event.type, 'toolCallId' in event && event.toolCallId])).toEqual([
      ['tool/failed', 'call-1'],
      ['tool/completed', 'attempt-2'],
    ]);
    const state = replayLog(sessionId, events);
    expect(state.toolCalls['call-1']).toMatchObject({ status: 'failed', turnId: 'turn-1' });
    expect(state.toolCalls['attempt-2']).toMatchObject({ status: 'done', retryOf: 'call-1', attempt: 2 });
    expect(state.turns['turn-2'].entries[0]).toEqual({ kind: 'tool', toolCallId: 'attempt-2' });
  });

  it('runs a read-only call again without asking', async () => {
    const { runtime, store } = setup([
      { ok: false, error: 'No target is open.' },
      { ok: true, values: {} },
    ]);
    await failedFirstAttempt(runtime, 'getParameters');
    expect(await runtime.retryToolCall(retry())).toMatchObject({ status: 'completed' });
    expect((await log(store)).some((event) => event.type === 'approval/requested')).toBe(false);
  });

  it('retries the latest attempt: a second retry numbers itself 3 and follows the second', async () => {
    const { runtime, store } = setup([{ ok: false, error: 'one' }, { ok: false, error: 'two' }, { ok: true }]);
    await failedFirstAttempt(runtime, 'getParameters');
    expect((await runtime.retryToolCall(retry('attempt-2'))).status).toBe('failed');
    expect((await runtime.retryToolCall(retry('attempt-3'))).status).toBe('completed');
    const retried = (await log(store)).flatMap((event) => (event.type === 'tool/retried' ? [event.data] : []));
    expect(retried).toEqual([
      { attempt: 2, previousAttemptId: 'call-1' },
      { attempt: 3, previousAttemptId: 'attempt-2' },
    ]);
  });

  it('refuses a call that succeeded, a turn that is not open, and a call it does not know, writing nothing', async () => {
    const { runtime, store } = setup([{ ok: true }]);
    await runtime.append(sessionId, [started('turn-1')]);
    await runtime.executeTool(call('getParameters'));
    await runtime.append(sessionId, [completed('turn-1'), started('turn-2')]);
    const before = (await log(store)).length;
    await expect(runtime.retryToolCall(retry())).rejects.toThrow(/Only a call that failed/);
    await expect(runtime.retryToolCall({ ...retry(), turnId: 'turn-1' })).rejects.toThrow(/open turn/);
    await expect(runtime.retryToolCall({ ...retry(), toolCallId: 'nope' })).rejects.toThrow(/No tool call nope/);
    expect((await log(store)).length).toBe(before);
  });
});
