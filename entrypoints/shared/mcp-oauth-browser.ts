import browser from 'webextension-polyfill';
import { McpOAuthStore } from '@/lib/mcp/mcp-oauth-store';
import type { McpOAuthProviderOptions } from '@/lib/mcp/mcp-oauth-provider';
import { extensionKeyValueStore } from './extension-key-value-store';
import { randomHex } from './random-hex';

export const mcpOAuthStore = new McpOAuthStore(extensionKeyValueStore);

/**
 * The OAuth client's platform: the redirect address the browser catches (`https://<id>.chromiumapp.org/mcp` in
 * Chrome, `https://<hash>.extensions.allizom.org/mcp` in Firefox), and, where a user can sign in, the browser's
 * own authorization window. `identity.launchWebAuthFlow` resolves to the address the server redirected to.
 */
export function mcpOAuthOptions(interactive: boolean): Omit<McpOAuthProviderOptions, 'serverName'> {
  return {
    store: mcpOAuthStore,
    // Read when a server is connected, not when the worker starts.
    get redirectUrl() {
      return browser.identity.getRedirectURL('mcp');
    },
    ...(interactive ? { launch: (url: string) => browser.identity.launchWebAuthFlow({ url, interactive: true }) } : {}),
    now: () => Date.now(),
    randomHex,
  };
}
