import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import type { McpOAuthProvider } from './mcp-oauth-provider';
import type { McpOAuthStore } from './mcp-oauth-store';
import type { McpServerConfig } from './mcp-server-config';

/** An access token this close to its expiry is refreshed before a connection rather than used. */
const EXPIRY_MARGIN_MS = 30_000;

export type McpSignInResult = { ok: true; how: 'kept' | 'refreshed' | 'signed-in' } | { ok: false; error: string };

/**
 * Makes sure a server has a usable token before Settings connects to it: the stored one while it is valid, a
 * refreshed one when it expired, else the whole sign-in (discovery, registration, authorization with PKCE, token),
 * all of it the SDK's `auth()`.
 */
export async function signInToMcpServer(
  config: Pick<McpServerConfig, 'id' | 'url'>,
  provider: McpOAuthProvider,
  store: McpOAuthStore,
  now: () => number,
): Promise<McpSignInResult> {
  const grant = await store.grant(config.id);
  if (grant.tokens && (grant.expiresAt === undefined || grant.expiresAt > now() + EXPIRY_MARGIN_MS)) {
    return { ok: true, how: 'kept' };
  }
  try {
    const first = await auth(provider, { serverUrl: config.url });
    if (first === 'AUTHORIZED') return { ok: true, how: 'refreshed' };
    const authorizationCode = provider.authorizationCode();
    if (!authorizationCode) return { ok: false, error: 'Sign-in failed: no authorization code came back.' };
    const second = await auth(provider, { serverUrl: config.url, authorizationCode });
    return second === 'AUTHORIZED'
      ? { ok: true, how: 'signed-in' }
      : { ok: false, error: 'Sign-in failed: the authorization server asked for another sign-in.' };
  } catch (error) {
    return { ok: false, error: `Sign-in failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}
