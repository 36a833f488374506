import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpTestServer } from './mcp-test-server';

export interface McpHttpServer {
  /** `${origin}/mcp` is the test server; `/unauthorized` answers 401, `/malformed` sends JSON that is not JSON-RPC. */
  origin: string;
  calls: Map<string, number>;
  /** The Authorization header of every request to `/mcp`, to check configured headers reach the server. */
  authorizations: (string | undefined)[];
  releaseSlow(): void;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** The test MCP server over Streamable HTTP on 127.0.0.1, stateless: one SDK server per request, shared counts. */
export async function startMcpHttpServer(): Promise<McpHttpServer> {
  const calls = new Map<string, number>();
  const authorizations: (string | undefined)[] = [];
  let release: () => void = () => undefined;
  let released = new Promise<void>((resolve) => (release = resolve));
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === '/unauthorized') {
      response.writeHead(401, { 'WWW-Authenticate': 'Bearer' }).end('Unauthorized');
      return;
    }
    if (path === '/malformed') {
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"jsonrpc":"1.0","oops":true}');
      return;
    }
    if (path !== '/mcp') {
      response.writeHead(404).end();
      return;
    }
    authorizations.push(request.headers.authorization);
    if (request.method !== 'POST') {
      response.writeHead(405).end();
      return;
    }
    const body = await readBody(request);
    const test = createMcpTestServer({ calls, released: () => released });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => void transport.close().then(() => test.server.close()));
    await test.server.connect(transport);
    await transport.handleRequest(request, response, body);
  };
  const server: Server = createServer((request, response) => {
    handle(request, response).catch(() => response.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    calls,
    authorizations,
    releaseSlow() {
      release();
      released = new Promise<void>((resolve) => (release = resolve));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
