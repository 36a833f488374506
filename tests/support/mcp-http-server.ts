import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as McpLowLevelServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createMcpTestServer } from './mcp-test-server';
import { registerMcpTestApps, registerOtherServerNote } from './mcp-test-apps';

export interface McpHttpServer {
  /**
   * `${origin}/mcp` is the test server; `/many` lists 500 tools and one whose schema is not JSON Schema;
   * `/unauthorized` answers 401, `/malformed` sends JSON that is not JSON-RPC; `/apps` is the test server with its
   * MCP Apps (tests/support/mcp-test-apps.ts) added.
   */
  origin: string;
  calls: Map<string, number>;
  /** The Authorization header of every request to `/mcp`, to check configured headers reach the server. */
  authorizations: (string | undefined)[];
  releaseSlow(): void;
  close(): Promise<void>;
}

const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
  'Access-Control-Allow-Headers': '*, Authorization',
  'Access-Control-Expose-Headers': 'mcp-session-id, mcp-protocol-version',
};

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** A server with more tools than are offered, one of them with an input schema that is not JSON Schema. */
function createManyToolsServer(): McpLowLevelServer {
  const server = new McpLowLevelServer({ name: 'many-tools', version: '0.0.1' }, { capabilities: { tools: {} } });
  const tools = [
    { name: 'broken', inputSchema: { type: 'object', properties: { a: { type: 'text' } } } },
    ...Array.from({ length: 500 }, (_, index) => ({ name: `tool${index}`, inputSchema: { type: 'object' } })),
  ];
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  return server;
}

/**
 * The test MCP servers over Streamable HTTP on 127.0.0.1, with sessions (so a server can tell its client that
 * its tool list changed, on the client's GET stream); the tool counts are shared by all sessions.
 */
export async function startMcpHttpServer(): Promise<McpHttpServer> {
  const calls = new Map<string, number>();
  const authorizations: (string | undefined)[] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let release: () => void = () => undefined;
  let released = new Promise<void>((resolve) => (release = resolve));
  let origin = '';
  const serverFor = (path: string) => {
    if (path === '/many') return createManyToolsServer();
    const test = createMcpTestServer({ calls, released: () => released }).server;
    if (path === '/apps') registerMcpTestApps(test, (name) => calls.set(name, (calls.get(name) ?? 0) + 1), origin);
    if (path === '/other') registerOtherServerNote(test, (name) => calls.set(name, (calls.get(name) ?? 0) + 1));
    return test;
  };
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === '/unauthorized') {
      response.writeHead(401, { 'WWW-Authenticate': 'Bearer' }).end('Unauthorized');
      return;
    }
    // What the network MCP App fetches: counted as `data`, and without CORS headers (only the stage's relay reads it).
    if (path === '/data') {
      calls.set('data', (calls.get('data') ?? 0) + 1);
      response.writeHead(200, { 'Content-Type': 'text/plain' }).end(`network data for ${request.method}`);
      return;
    }
    if (path === '/malformed') {
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"jsonrpc":"1.0","oops":true}');
      return;
    }
    if (path !== '/mcp' && path !== '/many' && path !== '/apps' && path !== '/other') {
      response.writeHead(404).end();
      return;
    }
    // As servers meant for browsers do (server-everything too): Firefox preflights the extension's requests.
    for (const [name, value] of Object.entries(CORS_HEADERS)) response.setHeader(name, value);
    if (request.method === 'OPTIONS') {
      response.writeHead(204).end();
      return;
    }
    if (path === '/mcp') authorizations.push(request.headers.authorization);
    const body = request.method === 'POST' ? await readBody(request) : undefined;
    const sessionId = request.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing) {
      await existing.handleRequest(request, response, body);
      return;
    }
    if (sessionId !== undefined || request.method !== 'POST') {
      response.writeHead(404).end();
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await serverFor(path).connect(transport);
    await transport.handleRequest(request, response, body);
  };
  const server: Server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    calls,
    authorizations,
    releaseSlow() {
      release();
      released = new Promise<void>((resolve) => (release = resolve));
    },
    async close() {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
