import { describe, expect, it, vi } from 'vitest';
import type { AgentEventDraft } from '../protocol/agent-event';
import { sideEffectOf, TOOLS } from '../tools/tool-registry';
import type { ToolOutput } from '../protocol/tool-output';
import { testRuntime } from '../../tests/support/test-runtime';
import { MemoryEventStore } from '../session-log/memory-event-store';
import type { ToolExecutionRequest } from '../protocol/tool-execution-request';

const sessionId = 'session-1';
const turnId = 'turn-1';
const turnStarted: AgentEventDraft = {
  type: 'turn/started',
  sessionId,
  turnId,
  time: 1,
  data: { userItemId: 'user-1', text: 'What can you drive?' },
};
const call = (toolCallId: string, toolName: string, input: ToolExecutionRequest['input']): ToolExecutionRequest => ({
  sessionId,
  turnId,
  stepId: 'step-1',
  toolCallId,
  toolName,
  input,
});

const toolTypes = async (store: MemoryEventStore, toolCallId: string) =>
  (await store.readToolCall(sessionId, toolCallId))
    .map((event) => event.type)
    .filter((type) => type.startsWith('tool/'));

/** A runtime whose first stage never answers: the call stays started, as when the worker stops during it. */
async function cutOffCall(store: MemoryEventStore, request: ToolExecutionRequest): Promise<void> {
  const before = testRuntime({
    store,
    executeTool: () => new Promise<ToolOutput>(() => {}),
    now: () => 10,
    newId: () => 'id',
    longPollMs: 1,
  });
  await before.append(sessionId, [turnStarted]);
  void before.executeTool(request);
  await vi.waitFor(async () =>
    expect(await toolTypes(store, request.toolCallId)).toEqual(['tool/requested', 'tool/started']),
  );
}

function restartedRuntime(store: MemoryEventStore) {
  const executeTool = vi.fn(async (): Promise<ToolOutput> => ({ ok: true, targets: ['particles'] }));
  const recoverTool = vi.fn(async () => ({ kind: 'unknown' as const }));
  return {
    runtime: testRuntime({ store, executeTool, recoverTool, now: () => 20, newId: () => 'id' }),
    executeTool,
    recoverTool,
  };
}

describe('side-effect classes', () => {
  it('declares one for every tool, and an unknown tool counts as side-effecting', () => {
    for (const tool of TOOLS) expect(['read-only', 'side-effecting']).toContain(tool.sideEffect);
    expect(sideEffectOf('listTargets')).toBe('read-only');
    expect(sideEffectOf('getParameters')).toBe('read-only');
    expect(sideEffectOf('setParameter')).toBe('side-effecting');
    expect(sideEffectOf('noSuchTool')).toBe('side-effecting');
  });

  it('runs a read-only call cut off by a restart again instead of answering "outcome unknown"', async () => {
    const store = new MemoryEventStore();
    await cutOffCall(store, call('call-read', 'listTargets', {}));
    const { runtime, executeTool, recoverTool } = restartedRuntime(store);
    expect(await runtime.executeTool(call('call-read', 'listTargets', {}))).toMatchObject({
      status: 'completed',
      output: { ok: true, targets: ['particles'] },
    });
    expect(executeTool).toHaveBeenCalledTimes(1);
    expect(recoverTool).not.toHaveBeenCalled();
    expect(await toolTypes(store, 'call-read')).toEqual(['tool/requested', 'tool/started', 'tool/completed']);
  });

  it('keeps a side-effecting call cut off by a restart at most once', async () => {
    const store = new MemoryEventStore();
    const setSpeed = call('call-write', 'setParameter', { param: 'speed', value: 12 });
    await cutOffCall(store, setSpeed);
    const { runtime, executeTool } = restartedRuntime(store);
    expect(await runtime.executeTool(setSpeed)).toMatchObject({ status: 'unknown', replayed: true });
    expect(executeTool).not.toHaveBeenCalled();
    expect(await toolTypes(store, 'call-write')).toEqual(['tool/requested', 'tool/started', 'tool/unknown']);
  });

  it('leaves a read-only call already settled as unknown (its turn ended) settled', async () => {
    const store = new MemoryEventStore();
    await cutOffCall(store, call('call-read', 'getParameters', {}));
    const { runtime, executeTool } = restartedRuntime(store);
    await runtime.append(sessionId, [
      { type: 'turn/completed', sessionId, turnId, time: 30, data: { reason: 'stop' } },
    ]);
    expect(await runtime.executeTool(call('call-read', 'getParameters', {}))).toMatchObject({ status: 'unknown' });
    expect(executeTool).not.toHaveBeenCalled();
  });
});
