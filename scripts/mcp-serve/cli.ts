import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { discoverTargets } from '../discover-targets';
import { createMcpAppServer } from './mcp-app-server';
import { targetHtml } from './target-html';

const usage = 'Usage: npm run mcp:serve -- <target id> [--port 4020] [--host 127.0.0.1]';

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  // The transport checks the JSON-RPC shape itself; this only turns bytes into a value (or leaves them unparsed).
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return text;
  }
}

export interface ServedTarget {
  url: string;
  close(): Promise<void>;
}

/** Serves one target of `root` (targets/ by default) as an MCP App over Streamable HTTP at `/mcp`. */
export async function serveTarget(
  targetId: string,
  options: { port?: number; host?: string; root?: string } = {},
): Promise<ServedTarget> {
  const root = options.root ?? join(import.meta.dirname, '../../targets');
  const targets = discoverTargets(root);
  const target = targets.find((candidate) => candidate.entry.manifest.id === targetId);
  if (!target) {
    const known = targets.map((candidate) => candidate.entry.manifest.id).join(', ');
    throw new Error(`No target "${targetId}" in ${root}; known: ${known}.`);
  }
  const { manifest } = target.entry;
  const html = targetHtml(target.folder, manifest);
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const server = createServer((request, response) => {
    void (async () => {
      if (new URL(request.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp')
        return void response.writeHead(404).end();
      const body = request.method === 'POST' ? await readBody(request) : undefined;
      const sessionId = request.headers['mcp-session-id'];
      const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (existing) return existing.handleRequest(request, response, body);
      if (sessionId !== undefined || request.method !== 'POST') return void response.writeHead(404).end();
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, transport),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await createMcpAppServer(manifest, html).connect(transport);
      await transport.handleRequest(request, response, body);
    })().catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((done) => server.listen(options.port ?? 4020, options.host ?? '127.0.0.1', done));
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}/mcp`,
    async close() {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      await new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      });
    },
  };
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      port: { type: 'string', default: '4020' },
      host: { type: 'string', default: '127.0.0.1' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || positionals.length !== 1) {
    console.log(usage);
    process.exitCode = values.help ? 0 : 1;
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid --port ${values.port}\n${usage}`);
  const served = await serveTarget(positionals[0], { port, host: values.host });
  console.log(`${positionals[0]} is served as an MCP App at ${served.url} (Streamable HTTP). Ctrl+C stops it.`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  });
}
