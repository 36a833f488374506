import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { checkChanges } from '../../lib/manifest/parameter-validation';
import {
  defaultValues,
  MCP_APP_MIME_TYPE,
  mcpAppResourceUri,
  mcpAppTools,
  type McpAppTool,
} from '../../lib/mcp/mcp-app-target';
import type { JsonValue } from '../../lib/protocol/json-value';
import type { TargetManifest } from '../../lib/protocol/target-manifest';

function result(values: Record<string, JsonValue>, said: string): CallToolResult {
  return { content: [{ type: 'text', text: `${said} ${JSON.stringify(values)}` }], structuredContent: { values } };
}

/**
 * One target as an MCP App on the official SDK's McpServer: a tool per target action (see mcpAppTools), each
 * naming the `ui://` resource that holds the target's page. The parameters' values are the server's, checked
 * against the manifest as the extension checks them; the page shows what every result says they are.
 */
export function createMcpAppServer(manifest: TargetManifest, html: string): McpServer {
  const server = new McpServer({ name: `splitbrain-${manifest.id}`, version: '0.1.0' });
  const uri = mcpAppResourceUri(manifest.id);
  let values = defaultValues(manifest);
  server.registerResource(
    manifest.id,
    uri,
    { title: manifest.title, description: manifest.description, mimeType: MCP_APP_MIME_TYPE },
    () => ({ contents: [{ uri, mimeType: MCP_APP_MIME_TYPE, text: html }] }),
  );
  const run = (tool: McpAppTool, input: Record<string, unknown>): CallToolResult => {
    if (tool.action === 'get_parameters') return result(values, 'Current values:');
    if (tool.action === 'reset') {
      values = defaultValues(manifest);
      return result(values, 'Reset to the defaults:');
    }
    const check = checkChanges(
      manifest,
      Object.entries(input).map(([param, value]) => ({ param, value })),
    );
    if (!check.ok) return { content: [{ type: 'text', text: check.error }], isError: true };
    values = { ...values, ...Object.fromEntries(check.changes.map((change) => [change.param, change.value])) };
    return result(values, 'Set; the values now:');
  };
  // The tools are served through the SDK's protocol handlers, as McpServer.registerTool takes zod shapes and the
  // manifest's parameters are JSON Schema already.
  const tools = mcpAppTools(manifest);
  server.server.registerCapabilities({ tools: {} });
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map(({ action: _action, ...tool }) => tool),
  }));
  server.server.setRequestHandler(CallToolRequestSchema, (request) => {
    const tool = tools.find((candidate) => candidate.name === request.params.name);
    if (!tool) {
      const known = tools.map((candidate) => candidate.name).join(', ');
      return { content: [{ type: 'text', text: `No tool ${request.params.name}; known: ${known}.` }], isError: true };
    }
    return run(tool, request.params.arguments ?? {});
  });
  return server;
}
