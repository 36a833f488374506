import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpHttpServer, type McpHttpServer } from '../../tests/support/mcp-http-server';
import { connectMcpServer } from './mcp-connection';
import { mcpHttpTransport } from './mcp-http-transport';
import { mcpServerConfigSchema } from './mcp-server-config';
import { testMcpServer } from './mcp-test-report';

let server: McpHttpServer;
beforeAll(async () => {
  server = await startMcpHttpServer();
});
afterAll(() => server.close());

const at = (path: string) =>
  mcpServerConfigSchema.parse({ id: 'notes', name: 'Notes', url: `${server.origin}${path}` });

describe('mcpHttpTransport', () => {
  it('connects over Streamable HTTP and reports the server', async () => {
    const report = await testMcpServer(at('/mcp'), mcpHttpTransport);
    expect(report).toMatchObject({
      ok: true,
      name: 'splitbrain-test-server',
      version: '1.2.3',
      prompts: ['summarize', 'plan'],
    });
  });

  it('runs a tool once over HTTP', async () => {
    const connection = await connectMcpServer(at('/mcp'), mcpHttpTransport);
    if (!connection.ok) throw new Error(connection.error);
    await connection.session.callTool('deleteNote', { title: 'old' });
    expect(server.calls.get('deleteNote')).toBe(1);
    await connection.session.close();
  });

  it('hears a tool list change on the session stream and reads the new list', async () => {
    let changed!: () => void;
    const heard = new Promise<void>((resolve) => (changed = resolve));
    const connection = await connectMcpServer(at('/mcp'), mcpHttpTransport, { onToolsChanged: () => changed() });
    if (!connection.ok) throw new Error(connection.error);
    await connection.session.callTool('addTool', {});
    await heard;
    expect((await connection.session.listTools()).tools.map((tool) => tool.name)).toContain('extraTool');
    await connection.session.close();
  });

  it('caps a list of 500 tools and leaves out a schema that is not JSON Schema, saying both', async () => {
    const report = await testMcpServer(at('/many'), mcpHttpTransport);
    if (!report.ok) throw new Error(report.error);
    expect(report.tools).toHaveLength(100);
    expect(report.tools[0]).toEqual({ name: 'tool0', hint: 'unknown' });
    expect(report.notes).toEqual([
      'Tool "broken" left out: inputSchema.properties.a.type: "text" is not a JSON Schema type.',
      'Notes lists 500 tools; only the first 100 are offered to the model.',
    ]);
  });

  it('says 401 plainly', async () => {
    expect(await testMcpServer(at('/unauthorized'), mcpHttpTransport)).toEqual({
      ok: false,
      error: 'The server answered 401 Unauthorized: check the Authorization header, or choose OAuth to sign in.',
    });
  });

  it('fails clearly on a reply that is not JSON-RPC', async () => {
    expect(await testMcpServer(at('/malformed'), mcpHttpTransport)).toEqual({
      ok: false,
      error: 'The server sent a reply that is not valid JSON-RPC 2.0.',
    });
  });
});
