import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMcpOAuthServer, type McpOAuthServer } from '../../tests/support/mcp-oauth-server';
import type { KeyValueStore } from '../storage/key-value-store';
import { connectMcpServer } from './mcp-connection';
import { codeFromRedirect, mcpOAuthProvider, type McpOAuthProviderOptions } from './mcp-oauth-provider';
import { signInToMcpServer } from './mcp-oauth-sign-in';
import { MCP_OAUTH_KEY, McpOAuthStore } from './mcp-oauth-store';
import { mcpOAuthTransport } from './mcp-oauth-transport';
import { mcpServerConfigSchema, type McpServerConfig } from './mcp-server-config';
import { testMcpServer } from './mcp-test-report';

const REDIRECT = 'https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org/mcp';

function memoryStore(): KeyValueStore & { values: Map<string, unknown> } {
  const values = new Map<string, unknown>();
  return {
    values,
    get: (key) => Promise.resolve(structuredClone(values.get(key))),
    set: (key, value) => {
      values.set(key, structuredClone(value));
      return Promise.resolve();
    },
    onChange: () => undefined,
  };
}

/**
 * What launchWebAuthFlow does with an authorization server that needs no login page: follows the authorize
 * address until it redirects to the extension's redirect address, and resolves to that address.
 */
async function followToRedirect(authorizationUrl: string): Promise<string> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (response.status !== 302 || !location) throw new Error(`Authorization page could not be loaded.`);
  return location;
}

let server: McpOAuthServer;
let storage: ReturnType<typeof memoryStore>;
let store: McpOAuthStore;
let config: McpServerConfig;
let clock = 1_000_000;
const options = (launch?: McpOAuthProviderOptions['launch']): Omit<McpOAuthProviderOptions, 'serverName'> => ({
  store,
  redirectUrl: REDIRECT,
  ...(launch ? { launch } : {}),
  now: () => clock,
  randomHex: () => randomBytes(16).toString('hex'),
});
const signIn = () =>
  signInToMcpServer(
    config,
    mcpOAuthProvider(config.id, { ...options(followToRedirect), serverName: 'Notes' }),
    store,
    () => clock,
  );

beforeEach(async () => {
  server = await startMcpOAuthServer({ accessTokenSeconds: 600 });
  storage = memoryStore();
  store = new McpOAuthStore(storage);
  config = mcpServerConfigSchema.parse({ id: 'notes', name: 'Notes', url: server.mcpUrl, auth: 'oauth' });
});
afterEach(() => server.close());

describe('MCP OAuth against a local authorization server', () => {
  it('signs in with discovery, dynamic registration and PKCE, then calls a tool with the bearer token', async () => {
    expect(await signIn()).toEqual({ ok: true, how: 'signed-in' });
    expect(server.log.registrations).toEqual([{ client_id: expect.any(String), redirect_uris: [REDIRECT] }]);
    expect(server.log.authorizations).toEqual([
      {
        client_id: server.log.registrations[0].client_id,
        redirect_uri: REDIRECT,
        code_challenge_method: 'S256',
        resource: server.mcpUrl,
      },
    ]);
    expect(server.log.grants).toEqual(['authorization_code']);
    const grant = await store.grant('notes');
    expect(grant.client?.client_id).toBe(server.log.registrations[0].client_id);
    expect(grant.tokens?.refresh_token).toMatch(/^refresh-/);
    expect(grant.expiresAt).toBe(clock + 600_000);

    const connection = await connectMcpServer(config, mcpOAuthTransport(options()));
    if (!connection.ok) throw new Error(connection.error);
    expect(await connection.session.callTool('readNote', { title: 'milk' })).toMatchObject({
      content: [{ type: 'text', text: 'Note milk: buy milk.' }],
    });
    await connection.session.close();
    expect(server.log.calls.get('readNote')).toBe(1);
    expect(server.log.bearers.filter((bearer) => bearer.accepted).map((bearer) => bearer.token)).toContain(
      grant.tokens?.access_token,
    );
    expect(await signIn()).toEqual({ ok: true, how: 'kept' });
    expect(server.log.grants).toEqual(['authorization_code']);
  });

  it('refreshes an access token the server no longer accepts, without a new sign-in', async () => {
    await signIn();
    const before = (await store.grant('notes')).tokens?.access_token;
    server.expireAccessTokens();
    const report = await testMcpServer(config, mcpOAuthTransport(options()));
    expect(report).toMatchObject({ ok: true, name: 'splitbrain-test-server' });
    expect(server.log.grants).toEqual(['authorization_code', 'refresh_token']);
    expect(server.log.registrations).toHaveLength(1);
    expect((await store.grant('notes')).tokens?.access_token).not.toBe(before);
  });

  it('refreshes before connecting once the stored expiry has passed', async () => {
    await signIn();
    clock += 600_000;
    expect(await signIn()).toEqual({ ok: true, how: 'refreshed' });
    expect(server.log.grants).toEqual(['authorization_code', 'refresh_token']);
    expect(server.log.authorizations).toHaveLength(1);
  });

  it('a 401 that no refresh mends is a clear error where nobody can sign in, and the dead tokens are dropped', async () => {
    await signIn();
    server.revokeAll();
    const report = await testMcpServer(config, mcpOAuthTransport(options()));
    expect(report).toEqual({
      ok: false,
      error: 'Notes needs a sign-in: open Settings › MCP servers and press Test connection.',
    });
    const grant = await store.grant('notes');
    expect(grant.tokens).toBeUndefined();
    expect(grant.client?.client_id).toBe(server.log.registrations[0].client_id);
    expect(await signIn()).toEqual({ ok: true, how: 'signed-in' });
    expect(server.log.registrations).toHaveLength(1);
  });

  it('without a grant and without a user, connecting reports the sign-in needed', async () => {
    const connection = await connectMcpServer(config, mcpOAuthTransport(options()));
    expect(connection).toEqual({
      ok: false,
      error: 'Notes needs a sign-in: open Settings › MCP servers and press Test connection.',
    });
    expect(server.log.registrations).toHaveLength(1);
    expect(server.log.grants).toEqual([]);
  });

  it('reports a refused sign-in and a failed discovery exactly', async () => {
    const refused = await signInToMcpServer(
      config,
      mcpOAuthProvider('notes', {
        ...options(() => Promise.reject(new Error('The user did not approve access.'))),
        serverName: 'Notes',
      }),
      store,
      () => clock,
    );
    expect(refused).toEqual({ ok: false, error: 'Sign-in failed: The user did not approve access.' });
    const silent = createServer((_request, response) => response.writeHead(404).end());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentOrigin = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const nowhere = await signInToMcpServer(
      { id: 'nowhere', url: `${silentOrigin}/mcp` },
      mcpOAuthProvider('nowhere', { ...options(followToRedirect), serverName: 'Nowhere' }),
      store,
      () => clock,
    );
    await new Promise((resolve) => silent.close(resolve));
    // No metadata anywhere: the SDK falls back to the default /register, whose 404 is the failure shown.
    expect(nowhere).toEqual({
      ok: false,
      error:
        'Sign-in failed: HTTP 404: Invalid OAuth error response: SyntaxError: Unexpected end of JSON input. Raw body: ',
    });
  });

  it('keeps tokens only under their own key, and forgets them on sign-out', async () => {
    await signIn();
    expect([...storage.values.keys()]).toEqual([MCP_OAUTH_KEY]);
    await store.forget('notes');
    expect(await store.signedIn('notes')).toBe(false);
    expect(storage.values.get(MCP_OAUTH_KEY)).toEqual({});
  });
});

describe('codeFromRedirect', () => {
  it('takes the code when the state is the one sent', () => {
    expect(codeFromRedirect(`${REDIRECT}?code=abc&state=s1`, REDIRECT, 's1')).toBe('abc');
  });

  it('refuses another state, another address, an error and a missing code', () => {
    expect(() => codeFromRedirect(`${REDIRECT}?code=abc&state=s2`, REDIRECT, 's1')).toThrow(
      'The sign-in came back with a state that was not sent.',
    );
    expect(() => codeFromRedirect('https://evil.example/mcp?code=abc&state=s1', REDIRECT, 's1')).toThrow(
      'did not come back to the extension’s redirect address',
    );
    expect(() =>
      codeFromRedirect(`${REDIRECT}?error=access_denied&error_description=No%20thanks&state=s1`, REDIRECT, 's1'),
    ).toThrow('The authorization server refused the sign-in (access_denied: No thanks).');
    expect(() => codeFromRedirect(`${REDIRECT}?state=s1`, REDIRECT, 's1')).toThrow('without an authorization code');
  });
});
