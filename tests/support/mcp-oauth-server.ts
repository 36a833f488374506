import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpTestServer } from './mcp-test-server';

/**
 * What the authorization server saw: registrations, authorizations and token grants by type, and the bearer tokens
 * the MCP endpoint was called with (accepted or not).
 */
export interface McpOAuthServerLog {
  registrations: { client_id: string; redirect_uris: string[] }[];
  authorizations: { client_id: string; redirect_uri: string; code_challenge_method: string; resource?: string }[];
  grants: ('authorization_code' | 'refresh_token')[];
  bearers: { token: string | undefined; accepted: boolean }[];
  /** Every tool call that reached the MCP endpoint with a valid token. */
  calls: Map<string, number>;
}

export interface McpOAuthServer {
  origin: string;
  /** The protected MCP endpoint: the test server's tools behind a bearer token. */
  mcpUrl: string;
  log: McpOAuthServerLog;
  /** Makes every access token issued so far invalid (as at its expiry); refresh tokens still work. */
  expireAccessTokens(): void;
  /** Revokes every token, refresh tokens too: only a new sign-in helps. */
  revokeAll(): void;
  close(): Promise<void>;
}

const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
  'Access-Control-Allow-Headers': '*, Authorization',
  'Access-Control-Expose-Headers': 'mcp-session-id, mcp-protocol-version, www-authenticate',
};

async function readText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  response.end(JSON.stringify(body));
}

const pkceChallenge = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
}

/**
 * A small OAuth 2.1 authorization server and the MCP test server it protects, both on one 127.0.0.1 port:
 * protected-resource and authorization-server metadata, dynamic client registration, an authorize endpoint that
 * redirects straight back with a code (no login page), PKCE S256 checked at the token endpoint, refresh with
 * rotation, and a 401 with `resource_metadata` from the MCP endpoint without a valid token.
 */
export async function startMcpOAuthServer(options: { accessTokenSeconds?: number } = {}): Promise<McpOAuthServer> {
  const log: McpOAuthServerLog = { registrations: [], authorizations: [], grants: [], bearers: [], calls: new Map() };
  const clients = new Map<string, string[]>();
  const codes = new Map<string, IssuedCode>();
  const accessTokens = new Set<string>();
  const refreshTokens = new Map<string, string>();
  let origin = '';

  const issueTokens = (clientId: string) => {
    const access = `access-${randomUUID()}`;
    const refresh = `refresh-${randomUUID()}`;
    accessTokens.add(access);
    refreshTokens.set(refresh, clientId);
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: options.accessTokenSeconds ?? 3600,
      refresh_token: refresh,
    };
  };

  const register = async (request: IncomingMessage, response: ServerResponse) => {
    const metadata = JSON.parse(await readText(request)) as { redirect_uris?: unknown };
    const redirectUris = Array.isArray(metadata.redirect_uris) ? metadata.redirect_uris.map(String) : [];
    if (redirectUris.length === 0) return json(response, 400, { error: 'invalid_redirect_uri' });
    const clientId = `client-${randomUUID()}`;
    clients.set(clientId, redirectUris);
    log.registrations.push({ client_id: clientId, redirect_uris: redirectUris });
    json(response, 201, { ...metadata, client_id: clientId, client_id_issued_at: Math.floor(Date.now() / 1000) });
  };

  const authorize = (url: URL, response: ServerResponse) => {
    const query = Object.fromEntries(url.searchParams);
    const registered = clients.get(query.client_id ?? '');
    if (!registered || !registered.includes(query.redirect_uri ?? '')) {
      return json(response, 400, { error: 'invalid_request', error_description: 'Unknown client or redirect_uri.' });
    }
    const back = new URL(query.redirect_uri);
    if (query.response_type !== 'code' || query.code_challenge_method !== 'S256' || !query.code_challenge) {
      back.searchParams.set('error', 'invalid_request');
    } else {
      const code = `code-${randomUUID()}`;
      codes.set(code, { clientId: query.client_id, redirectUri: query.redirect_uri, challenge: query.code_challenge });
      back.searchParams.set('code', code);
    }
    if (query.state) back.searchParams.set('state', query.state);
    log.authorizations.push({
      client_id: query.client_id,
      redirect_uri: query.redirect_uri,
      code_challenge_method: query.code_challenge_method ?? '',
      ...(query.resource ? { resource: query.resource } : {}),
    });
    response.writeHead(302, { Location: back.href }).end();
  };

  const token = async (request: IncomingMessage, response: ServerResponse) => {
    const form = Object.fromEntries(new URLSearchParams(await readText(request)));
    if (form.grant_type === 'authorization_code') {
      const issued = codes.get(form.code ?? '');
      codes.delete(form.code ?? '');
      if (
        !issued ||
        issued.clientId !== form.client_id ||
        issued.redirectUri !== form.redirect_uri ||
        pkceChallenge(form.code_verifier ?? '') !== issued.challenge
      ) {
        return json(response, 400, { error: 'invalid_grant', error_description: 'Code, client or verifier wrong.' });
      }
      log.grants.push('authorization_code');
      return json(response, 200, issueTokens(issued.clientId));
    }
    if (form.grant_type === 'refresh_token') {
      const clientId = refreshTokens.get(form.refresh_token ?? '');
      if (!clientId || clientId !== form.client_id) {
        return json(response, 400, { error: 'invalid_grant', error_description: 'The refresh token was revoked.' });
      }
      refreshTokens.delete(form.refresh_token ?? '');
      log.grants.push('refresh_token');
      return json(response, 200, issueTokens(clientId));
    }
    json(response, 400, { error: 'unsupported_grant_type' });
  };

  const mcp = async (request: IncomingMessage, response: ServerResponse) => {
    const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const accepted = bearer !== undefined && accessTokens.has(bearer);
    log.bearers.push({ token: bearer, accepted });
    if (!accepted) {
      const metadataUrl = `${origin}/.well-known/oauth-protected-resource/mcp`;
      response.writeHead(401, {
        'WWW-Authenticate': `Bearer error="invalid_token", resource_metadata="${metadataUrl}"`,
      });
      response.end(JSON.stringify({ error: 'invalid_token' }));
      return;
    }
    if (request.method !== 'POST') return void response.writeHead(405).end();
    const text = await readText(request);
    const { server } = createMcpTestServer({ calls: log.calls, released: () => Promise.resolve() });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    await transport.handleRequest(request, response, text ? (JSON.parse(text) as unknown) : undefined);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    for (const [name, value] of Object.entries(CORS_HEADERS)) response.setHeader(name, value);
    if (request.method === 'OPTIONS') return void response.writeHead(204).end();
    switch (url.pathname) {
      case '/.well-known/oauth-protected-resource/mcp':
        return json(response, 200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
      case '/.well-known/oauth-authorization-server':
        return json(response, 200, {
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          registration_endpoint: `${origin}/register`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
        });
      case '/register':
        return register(request, response);
      case '/authorize':
        return authorize(url, response);
      case '/token':
        return token(request, response);
      case '/mcp':
        return mcp(request, response);
      default:
        response.writeHead(404).end();
    }
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    mcpUrl: `${origin}/mcp`,
    log,
    expireAccessTokens: () => accessTokens.clear(),
    revokeAll() {
      accessTokens.clear();
      refreshTokens.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
