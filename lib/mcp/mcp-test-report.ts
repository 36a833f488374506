import { connectMcpServer, mcpFailureMessage, type McpTransportFactory } from './mcp-connection';
import type { McpServerConfig } from './mcp-server-config';
import { mcpToolHint, type McpToolHint } from './mcp-tool-approval';
import { mcpServerCatalog } from './mcp-tool-catalog';

/** A tool the model would be offered, with what its annotations say (the default of its approval). */
export interface McpTestedTool {
  name: string;
  hint: McpToolHint;
}

export type McpTestReport =
  | {
      ok: true;
      name: string;
      version: string;
      tools: McpTestedTool[];
      resources: string[];
      prompts: string[];
      notes: string[];
    }
  | { ok: false; error: string };

/** What "Test connection" shows: the server's name, version, tools, resources and prompts, or the exact failure. */
export async function testMcpServer(
  config: McpServerConfig,
  makeTransport: McpTransportFactory,
): Promise<McpTestReport> {
  const connection = await connectMcpServer(config, makeTransport, { timeoutMs: 15_000 });
  if (!connection.ok) return connection;
  const { session } = connection;
  try {
    const listed = await session.listTools();
    const catalog = mcpServerCatalog(config, listed.tools);
    const notes = listed.truncated ? [...catalog.notes, 'The server lists more tools than are read.'] : catalog.notes;
    return {
      ok: true,
      ...session.info,
      tools: catalog.tools.map((tool) => ({
        name: tool.toolName,
        hint: mcpToolHint(listed.tools.find((listedTool) => listedTool.name === tool.toolName)?.annotations),
      })),
      resources: (await session.listResourceEntries()).map((resource) => resource.uri),
      prompts: (await session.listPrompts()).map((prompt) => prompt.name),
      notes,
    };
  } catch (error) {
    return { ok: false, error: mcpFailureMessage(error) };
  } finally {
    await session.close().catch(() => undefined);
  }
}
