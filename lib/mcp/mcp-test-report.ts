import { connectMcpServer, mcpFailureMessage, type McpTransportFactory } from './mcp-connection';
import type { McpServerConfig } from './mcp-server-config';
import { mcpServerCatalog } from './mcp-tool-catalog';

export type McpTestReport =
  | {
      ok: true;
      name: string;
      version: string;
      tools: string[];
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
      tools: catalog.tools.map((tool) => tool.toolName),
      resources: await session.listResources(),
      prompts: await session.listPrompts(),
      notes,
    };
  } catch (error) {
    return { ok: false, error: mcpFailureMessage(error) };
  } finally {
    await session.close().catch(() => undefined);
  }
}
