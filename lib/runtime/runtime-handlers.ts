import type { TargetRegistry } from '../manifest/target-registry';
import type { JsonObject, JsonValue } from '../protocol/json-value';
import { runtimeRequestSchema, type RuntimeRequest, type RuntimeResponse } from '../protocol/runtime-message';
import type { RuntimeHandlers, RuntimeRequestOf, RuntimeRequestType } from '../protocol/runtime-result-schemas';
import type { ToolOutput } from '../protocol/tool-output';
import { refuseTurnOverBudget, type BudgetGuard } from '../usage/budget-guard';
import type { CurrentPage, PageLink } from '../page-tools/page-link';
import type { Runtime } from './runtime';
import type { McpToolFamily } from '../mcp/mcp-tool-family';
import type { McpToolsResult } from '../protocol/mcp-tools-result';
import type { McpAppGrant } from '../protocol/mcp-app-grant';
import { targetFolderZip } from '../authored-targets/target-folder-zip';
import { bytesToBase64 } from '../files/bytes-to-base64';
import { errorText } from '../protocol/error-text';
import type { ConversationSearch } from '../search/conversation-search';

export interface RuntimeHandlerDependencies {
  runtime: Runtime;
  targets: Pick<TargetRegistry, 'catalog' | 'register' | 'unregister'>;
  /** A call from the toolbar popup, outside any chat: the same tools and validation as the model's calls. */
  runManualTool(toolName: string, input: JsonValue): Promise<ToolOutput>;
  activeTargetId(): Promise<string | undefined>;
  savedValues(targetId: string): Promise<JsonObject | undefined>;
  budgets?: BudgetGuard;
  /** MCP glue: the MCP family's definitions at turn start. */
  mcpTools?(): Promise<McpToolsResult>;
  /** MCP glue: the servers' prompts, and one of them filled in. */
  mcpPrompts?: Pick<McpToolFamily, 'prompts' | 'prompt'>;
  /** MCP glue: the servers' resources, and one of them read to attach as a file. */
  mcpResources?: Pick<McpToolFamily, 'resources' | 'resource'>;
  /** MCP Apps: the origins the user granted them, one changed; the app open in the stage reopens with it. */
  mcpAppGrants?: {
    list(): Promise<McpAppGrant[]>;
    set(grant: McpAppGrant, granted: boolean): Promise<McpAppGrant[]>;
  };
  /** Reloads a target in the stage if it is the one open there (a restored version, a changed grant). */
  reloadIfActive?(targetId: string): Promise<void>;
  /** Shows an older version of an authored target in the stage, as a preview the model's tools do not drive. */
  openTargetVersion?(sessionId: string, artifactId: string, version: number): Promise<void>;
  /** Full-text search over the conversations; without one, a search finds nothing. */
  search?: Pick<ConversationSearch, 'query'>;
  /** The page tools' link; without one no page is available. */
  pages?: Pick<PageLink, 'notePanel' | 'current' | 'forgetSession'>;
}

/** The runtime's answer to every request type, in one table checked against the protocol's result map. */
export function runtimeHandlers(dependencies: RuntimeHandlerDependencies): RuntimeHandlers {
  const { runtime, targets } = dependencies;
  return {
    'events/append': async (request) => {
      await refuseTurnOverBudget(dependencies.budgets, request.sessionId, request.events);
      return { lastSeq: await runtime.appendFromClient(request.sessionId, request.events, request.batchId) };
    },
    'events/read': async (request) => ({
      events: await runtime.read(request.sessionId, request.afterSeq, request.limit),
    }),
    'tool/execute': (request) => runtime.executeTool(request),
    'tool/retry': (request) => runtime.retryToolCall(request),
    'tool/manual': async (request) => ({ output: await dependencies.runManualTool(request.toolName, request.input) }),
    'sessions/list': async () => ({ sessions: await runtime.listSessions() }),
    'session/delete': async (request) => {
      await runtime.deleteSession(request.sessionId);
      await dependencies.pages?.forgetSession(request.sessionId);
      return { deleted: request.sessionId };
    },
    'session/fork': async (request) => ({ sessionId: await runtime.forkSession(request.sessionId, request.turnId) }),
    'session/import': (request) => runtime.importSession(request.stagingId, request.documentBlobId),
    'session/rewind-preview': async (request) => ({
      preview: await runtime.rewindPreview(request.sessionId, request.turnId),
    }),
    'session/rewind': (request) =>
      runtime.rewindSession(request.sessionId, request.turnId, request.mode, request.rewindId),
    'search/query': async (request) =>
      (await dependencies.search?.query(request.query, request.limit)) ?? {
        hits: [],
        conversations: 0,
        pending: 0,
        elapsedMs: 0,
      },
    'targets/list': async () => {
      const activeTargetId = await dependencies.activeTargetId();
      return {
        catalog: await targets.catalog(),
        activeTargetId,
        values: activeTargetId ? ((await dependencies.savedValues(activeTargetId)) ?? null) : null,
      };
    },
    'targets/register': (request) => targets.register(request.entryUrl, request.manifest),
    'targets/unregister': (request) => targets.unregister(request.targetId),
    'approval/decide': (request) => runtime.decideApproval(request),
    'ask/answer': (request) => runtime.answerAsk(request),
    'command/submit': (request) => runtime.submitCommand(request),
    'command/status': (request) => runtime.commandStatus(request.sessionId, request.commandId),
    'command/withdraw': (request) => runtime.withdrawSteer(request.sessionId, request.commandId),
    'pause/take': async (request) => ({ paused: await runtime.takePause(request.sessionId, request.turnId) }),
    'turn/resume': (request) => runtime.resumeTurn(request),
    'steer/take': async (request) => ({ steers: await runtime.takeSteers(request.sessionId, request.turnId) }),
    'budget/check': async (request) =>
      dependencies.budgets
        ? dependencies.budgets.check(request.sessionId, request.turnId)
        : { reached: false, conversation: { tokens: 0, dollars: 0 }, day: { tokens: 0, dollars: 0 } },
    'mcp/tools': async () => (await dependencies.mcpTools?.()) ?? { tools: [], notes: [] },
    'mcp/prompts': async () => (await dependencies.mcpPrompts?.prompts()) ?? { prompts: [], notes: [] },
    'mcp/prompt': async (request) =>
      (await dependencies.mcpPrompts?.prompt(request.serverId, request.name, request.arguments)) ?? {
        ok: false,
        error: 'This build reaches no MCP server.',
      },
    'mcp/resources': async () => (await dependencies.mcpResources?.resources()) ?? { resources: [], notes: [] },
    'mcp/resource': async (request) =>
      (await dependencies.mcpResources?.resource(request.serverId, request.uri, request.listed)) ?? {
        ok: false,
        error: 'This build reaches no MCP server.',
      },
    'mcp-app/grants': async () => ({ grants: (await dependencies.mcpAppGrants?.list()) ?? [] }),
    'mcp-app/grant': async (request) => {
      if (!dependencies.mcpAppGrants) throw new Error('This build opens no MCP Apps.');
      return { grants: await dependencies.mcpAppGrants.set(request.grant, request.granted) };
    },
    'job/cancel': (request) => runtime.cancelJob(request.sessionId, request.jobId, request.commandId),
    'artifact/act': (request) => runtime.answerForm(request),
    'target-artifact/restore': async (request) => {
      const restored = await runtime.targetArtifacts.restore(request.sessionId, request.artifactId, request.version);
      await dependencies.reloadIfActive?.(request.artifactId);
      return restored;
    },
    'target-artifact/open-version': async (request) => {
      if (!dependencies.openTargetVersion) throw new Error('This build cannot open older versions.');
      await dependencies.openTargetVersion(request.sessionId, request.artifactId, request.version);
      return { version: request.version };
    },
    'target-artifact/grant': async (request) => {
      const { sessionId, artifactId, grant, granted } = request;
      const grants = await runtime.targetArtifacts.setGrant(sessionId, artifactId, grant, granted);
      await dependencies.reloadIfActive?.(artifactId);
      return { granted: grants };
    },
    'target-artifact/export': async (request) => {
      const { fileName, bytes } = targetFolderZip(
        await runtime.targetArtifacts.load(request.sessionId, request.artifactId),
      );
      return { fileName, zipBase64: bytesToBase64(bytes) };
    },
    'page/current': (request) => currentPage(dependencies.pages, request),
  } satisfies RuntimeHandlers;
}

async function currentPage(
  pages: RuntimeHandlerDependencies['pages'],
  request: RuntimeRequestOf<'page/current'>,
): Promise<CurrentPage> {
  if (!pages) return { ok: false, reason: 'This build cannot act on pages.' };
  pages.notePanel(request.sessionId, {
    ...(request.windowId !== undefined ? { windowId: request.windowId } : {}),
    ...(request.panelTabId !== undefined ? { panelTabId: request.panelTabId } : {}),
  });
  return pages.current(request.sessionId);
}

function dispatch<TType extends RuntimeRequestType>(handlers: RuntimeHandlers, request: RuntimeRequestOf<TType>) {
  return (handlers[request.type] as (request: RuntimeRequestOf<TType>) => Promise<unknown>)(request);
}

/** Validates a message from one of the extension's own pages and answers it: `{ ok: true, result }` or the error. */
export async function answerRuntimeRequest(handlers: RuntimeHandlers, message: unknown): Promise<RuntimeResponse> {
  const parsed = runtimeRequestSchema.safeParse(message);
  if (!parsed.success) return { ok: false, error: `Invalid runtime request: ${parsed.error.issues[0]?.message}` };
  try {
    return { ok: true, result: await dispatch(handlers, parsed.data as RuntimeRequest) };
  } catch (error) {
    return { ok: false, error: errorText(error, { nameWhenEmpty: true }) };
  }
}
