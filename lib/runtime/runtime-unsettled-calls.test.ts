import { describe, expect, it, vi } from 'vitest';
import type { AgentEvent, AgentEventDraft } from '../protocol/agent-event';
import type { ToolOutput } from '../protocol/tool-output';
import { testRuntime } from '../../tests/support/test-runtime';
import { MemoryEventStore } from '../session-log/memory-event-store';
import { ENDED_WITHOUT_OUTCOME } from '../human-loop/request-book';
import type { ToolExecutionRequest } from '../protocol/tool-execution-request';

const sessionId = 'session-1';
const turnId = 'turn-1';

const turnStarted: AgentEventDraft = {
  type: 'turn/started',
  sessionId,
  turnId,
  time: 1,
  data: { userItemId: 'user-1', text: 'Set the speed' },
};
const turnCompleted: AgentEventDraft = { type: 'turn/completed', sessionId, turnId, time: 2, data: { reason: 'stop' } };
const call = (toolCallId: string, toolName = 'setParameter'): ToolExecutionRequest => ({
  sessionId,
  turnId,
  stepId: 'step-1',
  toolCallId,
  toolName,
  input: toolName === 'askUser' ? { question: 'Which?', answerType: 'text' } : { param: 'speed', value: 12 },
});

/** A store that records each transaction. */
function recordingStore() {
  const store = new MemoryEventStore();
  const transactions: AgentEvent[][] = [];
  const append = store.append.bind(store);
  vi.spyOn(store, 'append').mockImplementation(async (id, events, batchId) => {
    transactions.push(events);
    return append(id, events, batchId);
  });
  return { store, transactions };
}

/** A runtime whose stage never answers unless told otherwise, so that a call stays started. */
function runtimeOn(store: MemoryEventStore, executeTool = vi.fn((): Promise<ToolOutput> => new Promise(() => {}))) {
  let clock = 1_000;
  const runtime = testRuntime({
    store,
    executeTool,
    now: () => (clock += 5),
    newId: () => `id-${clock}`,
    longPollMs: 1,
  });
  return { runtime, executeTool };
}

const toolTypes = async (store: MemoryEventStore, toolCallId: string) =>
  (await store.readToolCall(sessionId, toolCallId))
    .map((event) => event.type)
    .filter((type) => type.startsWith('tool/'));

describe('a turn that ends with a call started and no outcome', () => {
  it('records the call as unknown in the same transaction as the turn end, after a restart', async () => {
    const { store, transactions } = recordingStore();
    const before = runtimeOn(store).runtime;
    await before.append(sessionId, [turnStarted]);
    void before.executeTool(call('call-1'));
    await vi.waitFor(async () => expect(await toolTypes(store, 'call-1')).toEqual(['tool/requested', 'tool/started']));
    // The worker restarts; the panel's request for the call was lost and the turn goes on to its end.
    const { runtime, executeTool } = runtimeOn(store);
    await runtime.append(sessionId, [turnCompleted]);
    expect(transactions.at(-1)?.map((event) => [event.type, 'toolCallId' in event ? event.toolCallId : ''])).toEqual([
      ['turn/completed', ''],
      ['tool/unknown', 'call-1'],
    ]);
    expect(transactions.at(-1)?.[1]).toMatchObject({ data: { reason: ENDED_WITHOUT_OUTCOME } });
    expect(executeTool).not.toHaveBeenCalled();
    const repeated = await runtime.executeTool(call('call-1'));
    expect(repeated).toMatchObject({ status: 'unknown', replayed: true });
    expect(await toolTypes(store, 'call-1')).toEqual(['tool/requested', 'tool/started', 'tool/unknown']);
  });

  it('leaves a call that is still running here to record its own outcome', async () => {
    const { store } = recordingStore();
    let finish: (output: ToolOutput) => void = () => {};
    const executeTool = vi.fn(() => new Promise<ToolOutput>((resolve) => (finish = resolve)));
    const running = runtimeOn(store, executeTool).runtime;
    await running.append(sessionId, [turnStarted]);
    const result = running.executeTool(call('call-1'));
    await vi.waitFor(() => expect(executeTool).toHaveBeenCalled());
    await running.append(sessionId, [turnCompleted]);
    expect(await toolTypes(store, 'call-1')).toEqual(['tool/requested', 'tool/started']);
    finish({ ok: true });
    expect(await result).toMatchObject({ status: 'completed' });
    expect(await toolTypes(store, 'call-1')).toEqual(['tool/requested', 'tool/started', 'tool/completed']);
  });

  it('settles an unanswered question by its expiry alone, and leaves settled calls alone', async () => {
    const { store } = recordingStore();
    const quick = runtimeOn(
      store,
      vi.fn(async (): Promise<ToolOutput> => ({ ok: true })),
    ).runtime;
    await quick.append(sessionId, [turnStarted]);
    await quick.executeTool({ ...call('call-done'), toolName: 'getParameters', input: {} });
    expect((await quick.executeTool(call('call-ask', 'askUser'))).status).toBe('waiting');
    await quick.append(sessionId, [turnCompleted]);
    expect(await toolTypes(store, 'call-done')).toEqual(['tool/requested', 'tool/started', 'tool/completed']);
    expect(await toolTypes(store, 'call-ask')).toEqual(['tool/requested', 'tool/started', 'tool/failed']);
  });

  it('answers a call re-asked after a restart whose recovery fails as unknown, instead of failing the request', async () => {
    const { store } = recordingStore();
    const before = runtimeOn(store).runtime;
    await before.append(sessionId, [turnStarted]);
    void before.executeTool(call('call-1'));
    await vi.waitFor(async () => expect(await toolTypes(store, 'call-1')).toEqual(['tool/requested', 'tool/started']));
    const executeTool = vi.fn(async (): Promise<ToolOutput> => ({ ok: true }));
    const recoverTool = vi.fn(async () => {
      throw new Error('Failed to fetch');
    });
    const restarted = testRuntime({ store, executeTool, recoverTool, now: () => 5, newId: () => 'id' });
    expect(await restarted.executeTool(call('call-1'))).toMatchObject({ status: 'unknown', replayed: true });
    expect(recoverTool).toHaveBeenCalledTimes(1);
    expect(executeTool).not.toHaveBeenCalled();
    expect(await toolTypes(store, 'call-1')).toEqual(['tool/requested', 'tool/started', 'tool/unknown']);
  });
});
