import type { JsonValue } from '../protocol/json-value';
import type { McpToolRunner } from './mcp-tool-family';

/**
 * What an MCP App asks of the user rather than of its server: a message added to the conversation and a link
 * opened in a new tab. Each is a call of its own in the app's turn, so the user's approval card, the log and the
 * model's history hold it as they hold the app's tool calls. The call itself only records the user's consent;
 * the app's request is carried out by `McpAppCalls` once the call has completed, so a model that names one of
 * these tools (they are never offered to it) gets an approval card and changes nothing.
 */
export const APP_MESSAGE_TOOL = 'app_send_message';
export const APP_OPEN_LINK_TOOL = 'app_open_link';

function field(input: JsonValue, name: string): string {
  const value = typeof input === 'object' && input !== null && !Array.isArray(input) ? input[name] : undefined;
  return typeof value === 'string' ? value : '';
}

function summaryOf(toolName: string, input: JsonValue): string {
  const app = field(input, 'app').slice(0, 200);
  if (toolName === APP_OPEN_LINK_TOOL)
    return `Open ${field(input, 'url').slice(0, 500)} in a new tab, as the MCP App “${app}” asks.`;
  return `Add the MCP App “${app}”’s message to this conversation: “${field(input, 'text').slice(0, 500)}”`;
}

/** The runner of one of the app request tools, always asking the user; undefined for any other name. */
export function mcpAppRequestRunner(toolName: string): McpToolRunner | undefined {
  if (toolName !== APP_MESSAGE_TOOL && toolName !== APP_OPEN_LINK_TOOL) return undefined;
  return {
    name: toolName,
    runsOn: 'mcp',
    sideEffect: 'side-effecting',
    execute: async () => ({ ok: true, text: 'The user allowed it.' }),
    recover: async () => ({ kind: 'unknown' }),
    approve: async (input, services) => ({
      required: true,
      summary: summaryOf(toolName, input),
      expiresAfterMs: (await services.policy()).expiresAfterSeconds * 1000,
    }),
  };
}
