import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_APPROVAL_POLICY } from '../tool-family/approval-policy';
import type { StageDriver } from '../targets/stage-driver';
import type { ToolExecutionRequest } from '../protocol/tool-execution-request';
import { toolRoutes } from './tool-routes';
import { mcpToolRunner, type McpToolFamily } from '../mcp/mcp-tool-family';

const request = (toolName: string): ToolExecutionRequest => ({
  sessionId: 'session-1',
  turnId: 'turn-1',
  stepId: 'step-1',
  toolCallId: 'call-1',
  toolName,
  input: {},
});

function setup() {
  const callStage: StageDriver = { open: vi.fn(), send: vi.fn(), activeTargetId: async () => undefined };
  const pages = {
    execute: vi.fn(async () => ({ ok: true, page: 'observed' })),
    gate: vi.fn(async () => ({ required: true, summary: 'Let Splitbrain read example.com?', always: true })),
  };
  const stage = {
    forToolCall: vi.fn(() => callStage),
    record: vi.fn(async () => ({ greeted: true, startedAt: 0, received: new Set<string>(), recent: [] })),
    activeTargetId: async () => undefined,
  };
  const catalog = { targets: [], defaultTargetId: 'particles' };
  const targets = {
    catalog: vi.fn(async () => catalog),
    context: vi.fn(async (on: StageDriver) => ({ catalog, stage: on })),
    run: vi.fn(async () => ({ ok: true, target: 'ran' })),
  };
  const routes = toolRoutes({ pages, stage, targets, policy: async () => DEFAULT_APPROVAL_POLICY });
  return { routes, pages, stage, targets, callStage };
}

describe('toolRoutes', () => {
  it('runs a page tool on the page and every other tool on the call’s stage, over its conversation’s catalog', async () => {
    const { routes, pages, stage, targets, callStage } = setup();
    expect(await routes.executeTool('observePage', {}, 'session-1/call-1', request('observePage'))).toEqual({
      ok: true,
      page: 'observed',
    });
    expect(pages.execute).toHaveBeenCalledWith('observePage', {}, request('observePage'));
    expect(targets.context).not.toHaveBeenCalled();
    expect(await routes.executeTool('listTargets', {}, 'session-1/call-2', request('listTargets'))).toEqual({
      ok: true,
      targets: [],
    });
    expect(stage.forToolCall).toHaveBeenCalledWith('session-1/call-2');
    expect(targets.context).toHaveBeenCalledWith(callStage, ['session-1']);
    expect(pages.execute).toHaveBeenCalledTimes(1);
  });

  it('reports a page call cut off by a restart unknown, and asks the stage’s record about any other', async () => {
    const { routes, stage } = setup();
    expect(await routes.recoverTool?.('actOnPage', {}, 'session-1/call-1', 1, request('actOnPage'))).toEqual({
      kind: 'unknown',
    });
    expect(stage.record).not.toHaveBeenCalled();
    expect(await routes.recoverTool?.('resetTarget', {}, 'session-1/call-2', 1, request('resetTarget'))).toEqual({
      kind: 'never-reached',
    });
    expect(stage.record).toHaveBeenCalled();
  });

  it('judges a page tool by its page gate and any other by the policy and the target', async () => {
    const { routes, pages } = setup();
    expect(await routes.approvalRequirement?.('observePage', {}, request('observePage'))).toMatchObject({
      required: true,
      summary: 'Let Splitbrain read example.com?',
    });
    expect(pages.gate).toHaveBeenCalledWith('observePage', {}, request('observePage'));
    expect(await routes.approvalRequirement?.('listTargets', {}, request('listTargets'))).toEqual({ required: false });
    expect(pages.gate).toHaveBeenCalledTimes(1);
  });
});

describe('toolRoutes with MCP servers', () => {
  it('sends a name the MCP family owns to it, and every other to the static routes', async () => {
    const { pages, stage, targets } = setup();
    const family = {
      owns: (name: string) => name.startsWith('mcp_'),
      execute: vi.fn(async () => ({ ok: true, text: 'Deleted old.' })),
      recover: vi.fn(async () => ({ kind: 'unknown' as const })),
      approval: vi.fn(async (_name: string, _input: unknown, expiresAfterMs: number) => ({
        required: true as const,
        summary: 'Run deleteNote on the MCP server "Notes".',
        expiresAfterMs,
      })),
    };
    const mcp = {
      ...family,
      runner: (name: string) =>
        family.owns(name) ? mcpToolRunner(name, family as unknown as McpToolFamily) : undefined,
    };
    const routes = toolRoutes({ pages, stage, targets, policy: async () => DEFAULT_APPROVAL_POLICY, mcp });
    const call = request('mcp_notes_deleteNote');
    expect(await routes.executeTool(call.toolName, { title: 'old' }, 'session-1/call-1', call)).toEqual({
      ok: true,
      text: 'Deleted old.',
    });
    expect(mcp.execute).toHaveBeenCalledWith(
      call.toolName,
      { title: 'old' },
      {
        sessionId: 'session-1',
        ownerId: 'session-1/call-1',
      },
    );
    expect(await routes.approvalRequirement!(call.toolName, {}, call)).toEqual({
      required: true,
      summary: 'Run deleteNote on the MCP server "Notes".',
      expiresAfterMs: DEFAULT_APPROVAL_POLICY.expiresAfterSeconds * 1000,
    });
    expect(await routes.recoverTool!(call.toolName, {}, 'session-1/call-1', 0, call)).toEqual({ kind: 'unknown' });
    await routes.executeTool('observePage', {}, 'session-1/call-2', request('observePage'));
    expect(pages.execute).toHaveBeenCalledTimes(1);
    expect(mcp.execute).toHaveBeenCalledTimes(1);
  });
});
