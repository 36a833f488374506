import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { McpListedPrompt } from '../protocol/mcp-prompt';
import type { McpListedResource } from '../protocol/mcp-resource';
import type { McpServerConfig } from './mcp-server-config';
import type { McpListedTool } from './mcp-tool-catalog';

/** How many tools are read from one server at most (pages of `tools/list`); the catalog caps further. */
export const MCP_TOOLS_READ_LIMIT = 1000;
const PAGE_LIMIT = 50;

/** Makes the transport for a server: the SDK's HTTP transports in the extension, an in-memory pair in tests. */
export type McpTransportFactory = (config: McpServerConfig) => Transport;

export interface McpServerInfo {
  name: string;
  version: string;
}

/** A live connection to one server: what the runtime needs, nothing of the SDK shows through. */
export interface McpSession {
  readonly info: McpServerInfo;
  listTools(): Promise<{ tools: McpListedTool[]; truncated: boolean }>;
  /** The resources with their names and types (the test report, the composer's attach menu). */
  listResourceEntries(): Promise<McpListedResource[]>;
  /** One resource's contents (`resources/read`), unchecked: the caller checks it at its boundary. */
  readResource(uri: string): Promise<unknown>;
  /** One page of `resources/list` as the server sent it, unchecked: an MCP App's own request, passed through. */
  listResources(cursor: string | undefined): Promise<unknown>;
  listPrompts(): Promise<McpListedPrompt[]>;
  getPrompt(name: string, input: Record<string, string>): Promise<unknown>;
  callTool(toolName: string, input: Record<string, unknown>, signal?: AbortSignal): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * Ajv, the SDK's default validator, compiles schemas with `new Function`, which the extension's CSP forbids.
 * Tool results are checked by mcpToolOutput instead, so the SDK's output-schema check accepts everything.
 */
const acceptingValidator: jsonSchemaValidator = {
  getValidator: () => (input) => ({ valid: true, data: input as never, errorMessage: undefined }),
};

/** The failure as the user reads it in Settings: the HTTP status where there is one, never a stack. */
export function mcpFailureMessage(error: unknown): string {
  if (error instanceof Error && Array.isArray((error as { issues?: unknown }).issues)) {
    return 'The server sent a reply that is not valid JSON-RPC 2.0.';
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    if (error.name === 'UnauthorizedError' || code === 401) {
      return 'The server answered 401 Unauthorized: check the Authorization header, or choose OAuth to sign in.';
    }
    return typeof code === 'number' && code > 0 ? `HTTP ${code}: ${error.message}` : error.message;
  }
  return String(error);
}

export interface ConnectOptions {
  /** Called when the server says its tool list changed; the caller reads it again. */
  onToolsChanged?: () => void;
  timeoutMs?: number;
}

export async function connectMcpServer(
  config: McpServerConfig,
  makeTransport: McpTransportFactory,
  options: ConnectOptions = {},
): Promise<{ ok: true; session: McpSession } | { ok: false; error: string }> {
  const client = new Client(
    { name: 'splitbrain', version: '0.1.0' },
    { capabilities: {}, jsonSchemaValidator: acceptingValidator },
  );
  const timeout = options.timeoutMs ?? 30_000;
  try {
    await client.connect(makeTransport(config), { timeout });
  } catch (error) {
    await client.close().catch(() => undefined);
    return { ok: false, error: mcpFailureMessage(error) };
  }
  const version = client.getServerVersion();
  const capabilities = client.getServerCapabilities() ?? {};
  if (options.onToolsChanged && capabilities.tools?.listChanged) {
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => options.onToolsChanged?.());
  }
  const session: McpSession = {
    info: { name: version?.name ?? config.name, version: version?.version ?? 'unknown' },
    async listTools() {
      if (!capabilities.tools) return { tools: [], truncated: false };
      const tools: McpListedTool[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < PAGE_LIMIT; page++) {
        const result = await client.listTools(cursor ? { cursor } : undefined, { timeout });
        tools.push(...(result.tools as McpListedTool[]));
        cursor = result.nextCursor;
        if (!cursor || tools.length >= MCP_TOOLS_READ_LIMIT) break;
      }
      const truncated = Boolean(cursor) || tools.length > MCP_TOOLS_READ_LIMIT;
      return { tools: tools.slice(0, MCP_TOOLS_READ_LIMIT), truncated };
    },
    async listResourceEntries() {
      if (!capabilities.resources) return [];
      const result = await client.listResources(undefined, { timeout });
      return result.resources.map((resource) => ({
        uri: resource.uri,
        name: resource.title ?? resource.name,
        ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
      }));
    },
    readResource: (uri) => client.readResource({ uri }, { timeout }),
    listResources: (cursor) => client.listResources(cursor !== undefined ? { cursor } : undefined, { timeout }),
    async listPrompts() {
      if (!capabilities.prompts) return [];
      const result = await client.listPrompts(undefined, { timeout });
      return result.prompts.map((prompt) => ({
        name: prompt.name,
        ...(prompt.description ? { description: prompt.description } : {}),
        arguments: (prompt.arguments ?? []).map((argument) => ({
          name: argument.name,
          required: argument.required === true,
        })),
      }));
    },
    getPrompt: (name, input) => client.getPrompt({ name, arguments: input }, { timeout }),
    callTool: (toolName, input, signal) =>
      client.callTool({ name: toolName, arguments: input }, undefined, {
        timeout: 5 * 60_000,
        resetTimeoutOnProgress: true,
        ...(signal ? { signal } : {}),
      }),
    close: () => client.close(),
  };
  return { ok: true, session };
}
