import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListResourcesRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpTestServer, type McpTestServer } from '../../tests/support/mcp-test-server';
import { connectMcpServer, type McpTransportFactory } from './mcp-connection';
import { mcpServerConfigSchema } from './mcp-server-config';
import { mcpServerCatalog } from './mcp-tool-catalog';
import { testMcpServer } from './mcp-test-report';

const config = mcpServerConfigSchema.parse({ id: 'notes', name: 'Notes', url: 'http://127.0.0.1:1/mcp' });

let open: McpTestServer | undefined;
afterEach(async () => {
  await open?.server.close();
  open = undefined;
});

function inMemory(server: { connect(transport: InMemoryTransport): Promise<void> }): McpTransportFactory {
  return () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    void server.connect(serverSide);
    return clientSide;
  };
}

function testServer(): McpTestServer {
  open = createMcpTestServer();
  return open;
}

describe('connectMcpServer', () => {
  it('reports the server name, version, tools, resources and prompts', async () => {
    const report = await testMcpServer(config, inMemory(testServer().server));
    expect(report).toMatchObject({ ok: true, name: 'splitbrain-test-server', version: '1.2.3' });
    if (!report.ok) return;
    expect(report.tools).toContainEqual({ name: 'readNote', hint: 'read-only' });
    expect(report.tools).toContainEqual({ name: 'deleteNote', hint: 'destructive' });
    expect(report.tools).toContainEqual({ name: 'slowWrite', hint: 'unknown' });
    expect(report.resources).toEqual(['note://first', 'image://dot', 'note://trip']);
    expect(report.prompts).toEqual(['summarize', 'plan']);
    expect(report.notes).toEqual([]);
  });

  it('calls a tool once and gives its result', async () => {
    const test = testServer();
    const connection = await connectMcpServer(config, inMemory(test.server));
    if (!connection.ok) throw new Error(connection.error);
    const result = await connection.session.callTool('readNote', { title: 'shopping' });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'Note shopping: buy milk.' }] });
    expect(test.calls.get('readNote')).toBe(1);
    await connection.session.close();
  });

  it('hears a tool list change and reads the new list', async () => {
    const test = testServer();
    let changed!: () => void;
    const heard = new Promise<void>((resolve) => (changed = resolve));
    const connection = await connectMcpServer(config, inMemory(test.server), { onToolsChanged: () => changed() });
    if (!connection.ok) throw new Error(connection.error);
    const before = await connection.session.listTools();
    expect(before.tools.map((tool) => tool.name)).not.toContain('extraTool');
    await connection.session.callTool('addTool', {});
    await heard;
    const after = await connection.session.listTools();
    expect(after.tools.map((tool) => tool.name)).toContain('extraTool');
    await connection.session.close();
  });

  it('passes an app’s resources/list cursor to the server and gives its page back, next cursor and all', async () => {
    const server = new Server({ name: 'pages', version: '0.0.1' }, { capabilities: { resources: {} } });
    const cursors: (string | undefined)[] = [];
    server.setRequestHandler(ListResourcesRequestSchema, (request) => {
      cursors.push(request.params?.cursor);
      return request.params?.cursor === 'page-2'
        ? { resources: [{ uri: 'note://b', name: 'b' }] }
        : { resources: [{ uri: 'note://a', name: 'a' }], nextCursor: 'page-2' };
    });
    const connection = await connectMcpServer(config, inMemory(server));
    if (!connection.ok) throw new Error(connection.error);
    expect(await connection.session.listResources(undefined)).toEqual({
      resources: [{ uri: 'note://a', name: 'a' }],
      nextCursor: 'page-2',
    });
    expect(await connection.session.listResources('page-2')).toEqual({ resources: [{ uri: 'note://b', name: 'b' }] });
    expect(cursors).toEqual([undefined, 'page-2']);
    await connection.session.close();
  });

  it('leaves out a tool whose input schema is not JSON Schema, and caps 500 tools with a note', async () => {
    const server = new Server({ name: 'many', version: '0.0.1' }, { capabilities: { tools: {} } });
    const tools = [
      { name: 'broken', inputSchema: { type: 'object', properties: { a: { type: 'text' } } } },
      ...Array.from({ length: 500 }, (_, index) => ({ name: `tool${index}`, inputSchema: { type: 'object' } })),
    ];
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    const connection = await connectMcpServer(config, inMemory(server));
    if (!connection.ok) throw new Error(connection.error);
    const listed = await connection.session.listTools();
    expect(listed.tools).toHaveLength(501);
    const catalog = mcpServerCatalog(config, listed.tools);
    expect(catalog.tools).toHaveLength(100);
    expect(catalog.notes).toEqual([
      'Tool "broken" left out: inputSchema.properties.a.type: "text" is not a JSON Schema type.',
      'Notes lists 500 tools; only the first 100 are offered to the model.',
    ]);
    await connection.session.close();
    await server.close();
  });

  it('says why a connection fails', async () => {
    const failing: McpTransportFactory = () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:1');
    };
    expect(await testMcpServer(config, failing)).toEqual({ ok: false, error: 'connect ECONNREFUSED 127.0.0.1:1' });
  });
});
