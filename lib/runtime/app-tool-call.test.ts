import { AppMessageDrafts } from '../mcp/mcp-app-request-tools';
import { describe, expect, it, vi } from 'vitest';
import { testRuntime } from '../../tests/support/test-runtime';
import type { ToolOutput } from '../protocol/tool-output';
import { MemoryEventStore } from '../session-log/memory-event-store';
import { MemoryBlobStore } from '../files/memory-blob-store';
import { callToolResultOf, McpAppCalls } from './mcp-app-calls';
import type { McpAppToolAnswer } from '../protocol/mcp-app-runtime-wire';

const sessionId = 'session-1';

function setup(required: boolean) {
  const store = new MemoryEventStore();
  let ids = 0;
  const executeTool = vi.fn(async (): Promise<ToolOutput> => ({
    ok: true,
    text: 'The counter is at 42.',
    structuredContent: { count: 42 },
  }));
  const runtime = testRuntime({
    store,
    executeTool,
    now: () => 1_000,
    newId: () => `id-${++ids}`,
    approvalRequirement: async () =>
      required
        ? { required: true, summary: 'Run incrementCounter on "Apps".', expiresAfterMs: 60_000 }
        : { required: false },
    longPollMs: 5,
  });
  return { store, runtime, executeTool };
}

describe('an MCP App’s own tool call', () => {
  it('runs in a turn of its own, waits for the approval, runs once and ends the turn', async () => {
    const { store, runtime, executeTool } = setup(true);
    await runtime.append(sessionId, [{ type: 'session/created', sessionId, time: 1, data: { title: 'Apps' } }]);
    const running = runtime.runAppToolCall({
      sessionId,
      note: 'The MCP App “showCounter” calls incrementCounter with {"by":1}.',
      toolName: 'mcp_apps_incrementCounter',
      input: { by: 1 },
    });
    await vi.waitFor(async () => {
      expect((await store.read(sessionId, 0)).some((event) => event.type === 'approval/requested')).toBe(true);
    });
    expect(executeTool).not.toHaveBeenCalled();
    const requested = (await store.read(sessionId, 0)).find((event) => event.type === 'approval/requested');
    if (requested?.type !== 'approval/requested') throw new Error('no approval');
    await runtime.decideApproval({
      sessionId,
      turnId: requested.turnId,
      toolCallId: requested.toolCallId,
      requestId: requested.requestId,
      decision: 'allow',
    });
    const result = await running;
    expect(result.status).toBe('completed');
    expect(executeTool).toHaveBeenCalledTimes(1);
    const types = (await store.read(sessionId, 0)).map((event) => event.type);
    expect(types).toEqual([
      'session/created',
      'turn/started',
      'tool/requested',
      'approval/requested',
      'approval/decided',
      'tool/started',
      'tool/completed',
      'turn/completed',
    ]);
    expect(callToolResultOf(result)).toEqual({
      result: { content: [{ type: 'text', text: 'The counter is at 42.' }], structuredContent: { count: 42 } },
    });
  });

  it('is owned by the runtime (not taken for a gone panel’s turn) and ends aborted on Stop, unrun', async () => {
    const { store, runtime, executeTool } = setup(true);
    await runtime.append(sessionId, [{ type: 'session/created', sessionId, time: 1, data: { title: 'Apps' } }]);
    const running = runtime.runAppToolCall({ sessionId, note: 'An app calls.', toolName: 'mcp_apps_x', input: {} });
    await vi.waitFor(async () => {
      expect((await store.read(sessionId, 0)).some((event) => event.type === 'approval/requested')).toBe(true);
    });
    await runtime.interruptOrphanedTurns(sessionId, 'The side panel that ran this turn is gone.');
    expect((await store.read(sessionId, 0)).some((event) => event.type === 'turn/interrupted')).toBe(false);
    await runtime.stopRunningTurns(sessionId);
    expect(await running).toEqual({
      status: 'denied',
      output: { ok: false, error: 'Stopped by the user.' },
      replayed: false,
    });
    expect(executeTool).not.toHaveBeenCalled();
    expect(
      (await store.read(sessionId, 0)).find((event) => event.type.startsWith('turn/') && event.type !== 'turn/started'),
    ).toMatchObject({
      type: 'turn/aborted',
      data: { reason: 'Stopped by the user.' },
    });
  });

  it('answers an unknown app, a tool its server lacks, and a denial with errors', async () => {
    const { runtime } = setup(false);
    const answers: McpAppToolAnswer[] = [];
    const calls = new McpAppCalls({
      appToolName: async (serverId, name) =>
        serverId === 'apps' && name === 'incrementCounter' ? 'mcp_apps_incrementCounter' : undefined,
      runAppToolCall: (call) => runtime.runAppToolCall(call),
      answer: (_targetId, _requestId, answer) => answers.push(answer),
      readResource: async () => ({ result: { contents: [] } }),
      listResources: async () => ({ result: { resources: [] } }),
      openLink: async () => undefined,
      recoverApp: async () => undefined,
      messages: new AppMessageDrafts(() => 'm1'),
      recordContext: async () => undefined,
      blobStore: new MemoryBlobStore(),
      imageRefusal: async () => undefined,
    });
    await calls.call('mcp-app-1', 'r1', { name: 'incrementCounter', arguments: {} });
    calls.opened('mcp-app-1', { sessionId, serverId: 'apps', serverName: 'Apps', title: 'showCounter' });
    await calls.call('mcp-app-1', 'r2', { name: 'noSuchTool', arguments: {} });
    expect(answers).toEqual([
      { error: 'This app is not known to the extension any more; ask for it to be opened again.' },
      { error: "The app's server offers no tool named noSuchTool." },
    ]);
    expect(
      callToolResultOf({
        status: 'denied',
        output: { ok: false, denied: true, error: 'Not run: the user denied this call.' },
        replayed: false,
      }),
    ).toEqual({
      error: 'Not run: the user denied this call.',
    });
  });
});
