import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { z } from 'zod';
import type { McpOAuthStore } from './mcp-oauth-store';

/** Thrown where a server needs a sign-in and no user is there to give it (the background, during a turn). */
export class McpSignInNeededError extends Error {
  override readonly name = 'McpSignInNeededError';
}

export interface McpOAuthProviderOptions {
  store: McpOAuthStore;
  /** The extension's redirect address (`identity.getRedirectURL`), registered with the authorization server. */
  redirectUrl: string;
  /**
   * Opens the authorization address for the user (`identity.launchWebAuthFlow`) and resolves to the address the
   * authorization server redirected back to. Absent where nobody can sign in: a missing grant is then an error.
   */
  launch?: (authorizationUrl: string) => Promise<string>;
  serverName: string;
  now(): number;
  /** At least 16 random bytes as hex, for the `state` parameter. */
  randomHex(): string;
}

/** The provider the SDK's `auth()` drives, plus the authorization code the sign-in brought back. */
export interface McpOAuthProvider extends OAuthClientProvider {
  authorizationCode(): string | undefined;
}

const redirectQuerySchema = z.union([
  z.object({ code: z.string().min(1), state: z.string().optional() }),
  z.object({ error: z.string().min(1), error_description: z.string().optional(), state: z.string().optional() }),
]);

/** The code in the address the authorization server sent the browser back to, checked against `state`. */
export function codeFromRedirect(returned: string, redirectUrl: string, state: string | undefined): string {
  const url = URL.canParse(returned) ? new URL(returned) : undefined;
  const expected = new URL(redirectUrl);
  if (!url || url.origin !== expected.origin || url.pathname !== expected.pathname) {
    throw new Error('The sign-in did not come back to the extension’s redirect address.');
  }
  const parsed = redirectQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) throw new Error('The sign-in came back without an authorization code.');
  if (parsed.data.state !== state) throw new Error('The sign-in came back with a state that was not sent.');
  if ('error' in parsed.data) {
    const detail = parsed.data.error_description ? `: ${parsed.data.error_description}` : '';
    throw new Error(`The authorization server refused the sign-in (${parsed.data.error}${detail}).`);
  }
  return parsed.data.code;
}

/**
 * One MCP server's OAuth client for the SDK's `auth()`: discovery, dynamic registration, PKCE and refresh are the
 * SDK's; this keeps what they produce in extension storage and sends the user to sign in through `launch`.
 */
export function mcpOAuthProvider(serverId: string, options: McpOAuthProviderOptions): McpOAuthProvider {
  const { store } = options;
  let codeVerifier: string | undefined;
  let state: string | undefined;
  let code: string | undefined;
  const clientMetadata: OAuthClientMetadata = {
    client_name: 'Splitbrain',
    redirect_uris: [options.redirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  return {
    get redirectUrl() {
      return options.redirectUrl;
    },
    get clientMetadata() {
      return clientMetadata;
    },
    state: () => (state = options.randomHex()),
    clientInformation: async () => (await store.grant(serverId)).client,
    saveClientInformation: (client) => store.update(serverId, (grant) => ({ ...grant, client })),
    tokens: async () => (await store.grant(serverId)).tokens,
    saveTokens: (tokens) =>
      store.update(serverId, (grant) => ({
        ...grant,
        tokens,
        ...(tokens.expires_in !== undefined ? { expiresAt: options.now() + tokens.expires_in * 1000 } : {}),
      })),
    saveCodeVerifier: (verifier) => void (codeVerifier = verifier),
    codeVerifier: () => {
      if (!codeVerifier) throw new Error('No sign-in is in progress for this server.');
      return codeVerifier;
    },
    async redirectToAuthorization(authorizationUrl) {
      if (!options.launch) {
        throw new McpSignInNeededError(
          `${options.serverName} needs a sign-in: open Settings › MCP servers and press Test connection.`,
        );
      }
      const returned = await options.launch(authorizationUrl.href);
      code = codeFromRedirect(returned, options.redirectUrl, state);
    },
    async invalidateCredentials(scope) {
      if (scope === 'all') return store.forget(serverId);
      if (scope === 'verifier') return void (codeVerifier = undefined);
      if (scope === 'client') return store.update(serverId, ({ client: _client, ...grant }) => grant);
      if (scope === 'tokens') return store.update(serverId, ({ client }) => (client ? { client } : {}));
    },
    authorizationCode: () => code,
  };
}
