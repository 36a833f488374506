import type { JsonValue } from '../protocol/json-value';
import { checkMcpInputSchema } from './mcp-input-schema';
import type { McpServerConfig } from './mcp-server-config';
import type { McpToolHints } from './mcp-tool-approval';
import { mcpToolMode } from './mcp-tool-approval';
import { mcpToolName } from './mcp-tool-name';
import { mcpToolApp } from './mcp-app-resource';

/** At most this many tools of one server reach the model; more would crowd out the rest of the context. */
export const MCP_TOOLS_PER_SERVER = 100;
const DESCRIPTION_LIMIT = 1024;

/** One tool as a server lists it (`tools/list`), before any check. */
export interface McpListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: unknown;
  annotations?: McpToolHints & { title?: string };
  /** Where the MCP Apps extension names the tool's `ui://` resource (see mcp-app-resource.ts). */
  _meta?: unknown;
}

/** A tool the model is offered, with what routing, approval and recovery need to know. */
export interface McpToolDefinition {
  name: string;
  serverId: string;
  serverName: string;
  toolName: string;
  description: string;
  inputSchema: { [key: string]: JsonValue };
  mode: 'ask' | 'allow';
  readOnly: boolean;
  /** MCP Apps: the `ui://` resource its results are shown in, in the stage. */
  appUri?: string;
  /** MCP Apps: only its server's app may call it; the model is not offered it. */
  appOnly?: true;
}

export interface McpServerCatalog {
  tools: McpToolDefinition[];
  /** What the user (Settings, Test connection) and the model are told about tools left out. */
  notes: string[];
}

/** A connected server's tools as definitions: checked, namespaced, capped, each with its approval mode. */
export function mcpServerCatalog(config: McpServerConfig, listed: readonly McpListedTool[]): McpServerCatalog {
  const notes: string[] = [];
  const tools: McpToolDefinition[] = [];
  const seen = new Set<string>();
  for (const tool of listed) {
    const check = checkMcpInputSchema(tool.inputSchema);
    if (!check.ok) {
      notes.push(`Tool "${tool.name}" left out: ${check.reason}`);
      continue;
    }
    const name = mcpToolName(config.id, tool.name);
    if (seen.has(name)) {
      notes.push(`Tool "${tool.name}" left out: its name is listed twice.`);
      continue;
    }
    seen.add(name);
    const app = mcpToolApp(tool._meta);
    tools.push({
      name,
      serverId: config.id,
      serverName: config.name,
      toolName: tool.name,
      description: `[${config.name}] ${tool.description ?? tool.title ?? tool.name}`.slice(0, DESCRIPTION_LIMIT),
      inputSchema: check.schema,
      mode: mcpToolMode(config, tool.name, tool.annotations),
      readOnly: tool.annotations?.readOnlyHint === true && tool.annotations.destructiveHint !== true,
      ...(app.resourceUri ? { appUri: app.resourceUri } : {}),
      ...(app.appOnly ? { appOnly: true as const } : {}),
    });
  }
  if (tools.length > MCP_TOOLS_PER_SERVER) {
    notes.push(
      `${config.name} lists ${tools.length} tools; only the first ${MCP_TOOLS_PER_SERVER} are offered to the model.`,
    );
    tools.length = MCP_TOOLS_PER_SERVER;
  }
  return { tools, notes };
}
