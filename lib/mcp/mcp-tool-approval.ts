import type { McpServerConfig, McpToolMode } from './mcp-server-config';

/** The MCP tool annotations that decide a default; servers may send none of them. */
export interface McpToolHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
}

/**
 * Whether a server's tool asks before it runs. A destructive tool always asks; otherwise the user's choice for
 * the tool, then the server's "always ask", then the annotations: read-only runs, anything unknown asks.
 * Annotations come from the server and are hints, so they can only make a call ask, never skip a user's "ask".
 */
export function mcpToolMode(
  config: Pick<McpServerConfig, 'toolModes' | 'alwaysAsk'>,
  toolName: string,
  hints: McpToolHints | undefined,
): McpToolMode {
  if (hints?.destructiveHint === true && hints.readOnlyHint !== true) return 'ask';
  const chosen = config.toolModes[toolName];
  if (chosen) return chosen;
  if (config.alwaysAsk) return 'ask';
  return hints?.readOnlyHint === true ? 'allow' : 'ask';
}

/** A call in flight when the worker stopped may be run again only when the server says it changes nothing. */
export function mcpToolIsReadOnly(hints: McpToolHints | undefined): boolean {
  return hints?.readOnlyHint === true && hints.destructiveHint !== true;
}

/** What a tool's annotations say, as Settings shows it next to the tool. */
export type McpToolHint = 'read-only' | 'destructive' | 'unknown';

export function mcpToolHint(hints: McpToolHints | undefined): McpToolHint {
  if (hints?.destructiveHint === true && hints.readOnlyHint !== true) return 'destructive';
  return hints?.readOnlyHint === true ? 'read-only' : 'unknown';
}
