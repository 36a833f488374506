import type { JsonObject, JsonValue } from '../protocol/json-value';
import type { ToolOutput } from '../protocol/tool-output';
import type { ApprovalPolicy, ApprovalRequirement } from '../tool-family/approval-policy';
import type { ToolRunner } from '../tool-family/tool-family';
import { mcpToolOutput, type StoreMcpImage } from './mcp-call-result';
import { connectMcpServer, mcpFailureMessage, type McpSession, type McpTransportFactory } from './mcp-connection';
import { mcpPromptText, type McpPromptResult, type McpPromptsResult } from '../protocol/mcp-prompt';
import {
  mcpResourceAttachment,
  type McpListedResource,
  type McpResourceResult,
  type McpResourcesResult,
} from '../protocol/mcp-resource';
import type { McpServerConfig } from './mcp-server-config';
import { mcpServerCatalog, type McpServerCatalog, type McpToolDefinition } from './mcp-tool-catalog';
import { isMcpToolName, mcpToolName } from './mcp-tool-name';
import { openMcpAppOf, type OpenMcpApp } from './mcp-app-opening';
import { mcpAppRequestRunner, type AppMessageDrafts } from './mcp-app-request-tools';
import { mcpAppReadResultSchema, type McpAppToolAnswer } from '../protocol/mcp-app-runtime-wire';
import { issueText } from '../protocol/issue-text';
import { mcpAppResourceList } from './mcp-app-resource-list';

export interface McpToolFamilyDependencies {
  /** The servers as stored in Settings; only enabled ones are connected. */
  servers(): Promise<McpServerConfig[]>;
  makeTransport: McpTransportFactory;
  /** Keeps an image of a result in the blob store, owned by the call. */
  storeImage(call: { sessionId: string; ownerId: string }): StoreMcpImage;
  /** MCP Apps: shows a tool's `ui://` resource in the stage; without it such a tool's results are only returned. */
  openApp?: OpenMcpApp;
  /** MCP Apps: the apps' messages waiting for the user, which the `app_send_message` approval shows. */
  appMessages?: AppMessageDrafts;
  /** The origins the user granted a server's `ui://` resource (none when absent). */
  appGrants?(serverId: string, resourceUri: string): Promise<string[]>;
}

/** The recovery of a call cut off by a restart: the runtime's `ToolRecovery` kinds this family uses. */
export type McpRecovery = { kind: 'never-reached' } | { kind: 'unknown' };

/** What an MCP tool's call needs besides its server: the approval policy, for how long an approval stays open. */
export interface McpToolServices {
  policy(): Promise<ApprovalPolicy>;
}

/** One MCP tool as the tool contract runs it; the model is told of it by `definitions` (the server's JSON schema). */
export type McpToolRunner = ToolRunner<'mcp', McpToolServices>;

/**
 * The MCP servers' tools as one tool family: definitions come from the connected servers at turn start (not
 * from a static table), and execute, recover and approval answer for any name `owns` claims.
 */
export interface McpToolFamily {
  definitions(): Promise<{ tools: McpToolDefinition[]; notes: string[] }>;
  owns(toolName: string): boolean;
  /** The runner of a name this family owns: the dynamic family on the same contract as the static ones. */
  runner(toolName: string): McpToolRunner | undefined;
  execute(toolName: string, input: JsonValue, call: { sessionId: string; ownerId: string }): Promise<ToolOutput>;
  recover(toolName: string): Promise<McpRecovery>;
  approval(toolName: string, input: JsonValue, expiresAfterMs: number): Promise<ApprovalRequirement>;
  /** MCP Apps: the model-facing name of a tool an app of `serverId` calls, if that server offers it now. */
  appToolName(serverId: string, toolName: string): Promise<string | undefined>;
  /** MCP Apps: the server and tool name behind a model-facing name, to find an opened app again after a restart. */
  toolOf(toolName: string): Promise<{ serverId: string; serverName: string; toolName: string } | undefined>;
  /** MCP Apps: an app's own `resources/read`, from its own server only, checked and size-capped. */
  readAppResource(serverId: string, uri: string): Promise<McpAppToolAnswer>;
  /** MCP Apps: an app's own `resources/list` (the page at `cursor`), from its own server only, checked. */
  listAppResources(serverId: string, cursor: string | undefined): Promise<McpAppToolAnswer>;
  /** The enabled servers' prompts, offered as `/<server>:<prompt>` in the composer. */
  prompts(): Promise<McpPromptsResult>;
  /** One prompt's text with its arguments filled in, as the user's next message. */
  prompt(serverId: string, name: string, input: Record<string, string>): Promise<McpPromptResult>;
  /** The enabled servers' resources, offered in the composer's attach menu. */
  resources(): Promise<McpResourcesResult>;
  /** One resource's content (`resources/read`), to attach to a message as files; listed again unless `listed` says how. */
  resource(serverId: string, uri: string, listed?: Omit<McpListedResource, 'uri'>): Promise<McpResourceResult>;
  close(): Promise<void>;
}

interface Connected {
  key: string;
  session: Promise<{ ok: true; session: McpSession } | { ok: false; error: string }>;
  catalog?: McpServerCatalog;
}

function inputRecord(input: JsonValue): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? input : {};
}

export function createMcpToolFamily(dependencies: McpToolFamilyDependencies): McpToolFamily {
  const connections = new Map<string, Connected>();
  const known = new Map<string, McpToolDefinition>();

  function connection(config: McpServerConfig): Connected {
    const key = JSON.stringify(config);
    const existing = connections.get(config.id);
    if (existing?.key === key) return existing;
    if (existing) void existing.session.then((result) => (result.ok ? result.session.close() : undefined));
    const entry: Connected = {
      key,
      session: connectMcpServer(config, dependencies.makeTransport, {
        onToolsChanged: () => {
          entry.catalog = undefined;
        },
      }),
    };
    // A failed connection is tried again at the next turn rather than remembered.
    void entry.session.then((result) => {
      if (!result.ok && connections.get(config.id) === entry) connections.delete(config.id);
    });
    connections.set(config.id, entry);
    return entry;
  }

  async function catalogOf(config: McpServerConfig): Promise<McpServerCatalog> {
    const entry = connection(config);
    if (entry.catalog) return entry.catalog;
    const result = await entry.session;
    if (!result.ok) return { tools: [], notes: [`${config.name} is not connected: ${result.error}`] };
    try {
      const listed = await result.session.listTools();
      entry.catalog = mcpServerCatalog(config, listed.tools);
      return entry.catalog;
    } catch (error) {
      return { tools: [], notes: [`${config.name} did not list its tools: ${mcpFailureMessage(error)}`] };
    }
  }

  async function definitions() {
    const enabled = (await dependencies.servers()).filter((config) => config.enabled);
    for (const id of connections.keys()) {
      if (!enabled.some((config) => config.id === id)) {
        void connections.get(id)?.session.then((result) => (result.ok ? result.session.close() : undefined));
        connections.delete(id);
      }
    }
    const catalogs = await Promise.all(enabled.map(catalogOf));
    known.clear();
    for (const tool of catalogs.flatMap((catalog) => catalog.tools)) known.set(tool.name, tool);
    const offered = [...known.values()].filter((tool) => !tool.appOnly);
    return { tools: offered, notes: catalogs.flatMap((catalog) => catalog.notes) };
  }

  /** After a restart nothing is known yet: the definitions are read again before a name is looked up. */
  async function definition(toolName: string): Promise<McpToolDefinition | undefined> {
    if (!known.has(toolName)) await definitions();
    return known.get(toolName);
  }

  /** An app's own server, enabled and connected, for one of the app's requests; else why not, as its answer. */
  async function withAppServer(
    serverId: string,
    serve: (name: string, session: McpSession) => Promise<McpAppToolAnswer>,
  ): Promise<McpAppToolAnswer> {
    const config = (await dependencies.servers()).find((server) => server.id === serverId && server.enabled);
    if (!config) return { error: 'The app’s MCP server is not enabled any more.' };
    const session = await connection(config).session;
    if (!session.ok) return { error: `${config.name} is not connected: ${session.error}` };
    try {
      return await serve(config.name, session.session);
    } catch (error) {
      return { error: `${config.name}: ${mcpFailureMessage(error)}` };
    }
  }

  const family: McpToolFamily = {
    definitions,
    owns: isMcpToolName,
    runner: (toolName) =>
      isMcpToolName(toolName)
        ? mcpToolRunner(toolName, family)
        : mcpAppRequestRunner(toolName, dependencies.appMessages),
    async execute(toolName, input, call) {
      const tool = await definition(toolName);
      if (!tool) return { ok: false, error: `No connected MCP server offers the tool ${toolName}.` };
      const config = (await dependencies.servers()).find((server) => server.id === tool.serverId);
      if (!config) return { ok: false, error: `The MCP server of ${toolName} was removed.` };
      const session = await connection(config).session;
      if (!session.ok) return { ok: false, error: `${config.name} is not connected: ${session.error}` };
      try {
        const raw = await session.session.callTool(tool.toolName, inputRecord(input));
        const result = await mcpToolOutput(raw, dependencies.storeImage(call));
        if (!result.ok) return { ok: false, error: result.error };
        const output: ToolOutput = { ...result.output, ok: true };
        const { appUri } = tool;
        if (appUri && dependencies.openApp)
          output.app = await openMcpAppOf(
            session.session,
            { ...tool, appUri },
            { sessionId: call.sessionId, callKey: call.ownerId, input: inputRecord(input) as JsonObject, raw },
            dependencies.openApp,
            (await dependencies.appGrants?.(tool.serverId, appUri)) ?? [],
          );
        return output;
      } catch (error) {
        return { ok: false, error: `${config.name}: ${mcpFailureMessage(error)}` };
      }
    },
    async appToolName(serverId, toolName) {
      const name = mcpToolName(serverId, toolName);
      const tool = await definition(name);
      return tool?.serverId === serverId ? name : undefined;
    },
    async toolOf(toolName) {
      const tool = await definition(toolName).catch(() => undefined);
      return tool ? { serverId: tool.serverId, serverName: tool.serverName, toolName: tool.toolName } : undefined;
    },
    readAppResource: (serverId, uri) =>
      withAppServer(serverId, async (name, session) => {
        const read = mcpAppReadResultSchema.safeParse(await session.readResource(uri));
        if (!read.success) return { error: `${name} sent an unusable resource: ${issueText(read.error.issues[0])}` };
        return { result: read.data };
      }),
    listAppResources: (serverId, cursor) =>
      withAppServer(serverId, async (name, session) => mcpAppResourceList(name, await session.listResources(cursor))),
    // A read-only call changed nothing, so running it again is safe; any other may have happened or not.
    async recover(toolName) {
      const tool = await definition(toolName).catch(() => undefined);
      return tool?.readOnly ? { kind: 'never-reached' } : { kind: 'unknown' };
    },
    async approval(toolName, input, expiresAfterMs) {
      const tool = await definition(toolName);
      if (tool && tool.mode === 'allow') return { required: false };
      const shown = JSON.stringify(input ?? {}).slice(0, 200);
      const summary = tool
        ? `Run ${tool.toolName} on the MCP server "${tool.serverName}" with ${shown}.`
        : `Run ${toolName} (an MCP tool no connected server offers now).`;
      return { required: true, summary, expiresAfterMs };
    },
    async prompts() {
      const enabled = (await dependencies.servers()).filter((config) => config.enabled);
      const listed = await Promise.all(
        enabled.map(async (config): Promise<McpPromptsResult> => {
          const session = await connection(config).session;
          if (!session.ok) return { prompts: [], notes: [`${config.name} is not connected: ${session.error}`] };
          try {
            const prompts = await session.session.listPrompts();
            return {
              prompts: prompts.map((prompt) => ({ ...prompt, serverId: config.id, serverName: config.name })),
              notes: [],
            };
          } catch (error) {
            return { prompts: [], notes: [`${config.name} did not list its prompts: ${mcpFailureMessage(error)}`] };
          }
        }),
      );
      return { prompts: listed.flatMap((entry) => entry.prompts), notes: listed.flatMap((entry) => entry.notes) };
    },
    async prompt(serverId, name, input) {
      const config = (await dependencies.servers()).find((server) => server.id === serverId && server.enabled);
      if (!config) return { ok: false, error: `No enabled MCP server has the id ${serverId}.` };
      const session = await connection(config).session;
      if (!session.ok) return { ok: false, error: `${config.name} is not connected: ${session.error}` };
      try {
        return mcpPromptText(await session.session.getPrompt(name, input));
      } catch (error) {
        return { ok: false, error: `${config.name}: ${mcpFailureMessage(error)}` };
      }
    },
    async resources() {
      const enabled = (await dependencies.servers()).filter((config) => config.enabled);
      const listed = await Promise.all(
        enabled.map(async (config): Promise<McpResourcesResult> => {
          const session = await connection(config).session;
          if (!session.ok) return { resources: [], notes: [`${config.name} is not connected: ${session.error}`] };
          try {
            const resources = await session.session.listResourceEntries();
            return {
              resources: resources.map((resource) => ({ ...resource, serverId: config.id, serverName: config.name })),
              notes: [],
            };
          } catch (error) {
            return { resources: [], notes: [`${config.name} did not list its resources: ${mcpFailureMessage(error)}`] };
          }
        }),
      );
      return {
        resources: listed.flatMap((entry) => entry.resources),
        notes: listed.flatMap((entry) => entry.notes),
      };
    },
    async resource(serverId, uri, known) {
      const config = (await dependencies.servers()).find((server) => server.id === serverId && server.enabled);
      if (!config) return { ok: false, error: `No enabled MCP server has the id ${serverId}.` };
      const session = await connection(config).session;
      if (!session.ok) return { ok: false, error: `${config.name} is not connected: ${session.error}` };
      try {
        const listed = known
          ? { uri, ...known }
          : (await session.session.listResourceEntries()).find((resource) => resource.uri === uri);
        return mcpResourceAttachment(await session.session.readResource(uri), listed ?? { uri, name: uri });
      } catch (error) {
        return { ok: false, error: `${config.name}: ${mcpFailureMessage(error)}` };
      }
    },
    async close() {
      const open = [...connections.values()];
      connections.clear();
      await Promise.all(
        open.map((entry) => entry.session.then((result) => (result.ok ? result.session.close() : undefined))),
      );
    },
  };
  return family;
}

/**
 * Whether an MCP tool only reads is known once its server is asked, so it counts as side-effecting (the safe
 * side) and its recovery runs a read-only one again.
 */
export function mcpToolRunner(toolName: string, family: McpToolFamily): McpToolRunner {
  return {
    name: toolName,
    runsOn: 'mcp',
    sideEffect: 'side-effecting',
    execute: (input, _services, { request, callKey }) =>
      family.execute(toolName, input, { sessionId: request.sessionId, ownerId: callKey }),
    recover: () => family.recover(toolName),
    approve: async (input, services) =>
      family.approval(toolName, input, (await services.policy()).expiresAfterSeconds * 1000),
  };
}
