import { useEffect, useState } from 'react';
import browser from 'webextension-polyfill';
import { mcpOAuthProvider } from '@/lib/mcp/mcp-oauth-provider';
import { signInToMcpServer } from '@/lib/mcp/mcp-oauth-sign-in';
import { mcpOAuthTransport } from '@/lib/mcp/mcp-oauth-transport';
import { mcpServerOrigin, type McpServerConfig } from '@/lib/mcp/mcp-server-config';
import { MCP_SERVERS_KEY, McpServerStore } from '@/lib/mcp/mcp-server-store';
import { testMcpServer, type McpTestReport } from '@/lib/mcp/mcp-test-report';
import { isLoopbackUrl } from '@/lib/providers/loopback-url';
import { extensionKeyValueStore } from '../shared/extension-key-value-store';
import { mcpOAuthOptions, mcpOAuthStore } from '../shared/mcp-oauth-browser';

const mcpServers = new McpServerStore(extensionKeyValueStore);

/**
 * Asks for the server's host when the user saves or tests, as for endpoints; servers on this machine need none.
 * Called before any await so the click still counts as the user's gesture.
 */
function requestMcpHost(server: McpServerConfig): Promise<string> {
  if (isLoopbackUrl(server.url)) return Promise.resolve('');
  const origin = new URL(server.url).origin;
  return browser.permissions
    .request({ origins: [mcpServerOrigin(server)] })
    .catch(() => false)
    .then((granted) =>
      granted
        ? ''
        : ` Access to ${origin} was not granted; calls work only if that server allows cross-origin requests.`,
    );
}

/**
 * Test connection of an OAuth server: signs in first where there is no valid token (the browser's authorization
 * window, from this page, where the user is), then connects with the token as the runtime will.
 */
async function testWithSignIn(server: McpServerConfig): Promise<McpTestReport> {
  const options = mcpOAuthOptions(true);
  if (server.auth === 'oauth') {
    const provider = mcpOAuthProvider(server.id, { ...options, serverName: server.name });
    const signedIn = await signInToMcpServer(server, provider, mcpOAuthStore, options.now);
    if (!signedIn.ok) return signedIn;
  }
  return testMcpServer(server, mcpOAuthTransport(options));
}

/** The stored MCP servers, kept current, with save (host asked first), remove, Test connection and sign-out. */
export function useMcpServers(): {
  servers: McpServerConfig[] | undefined;
  save(server: McpServerConfig): Promise<string>;
  remove(serverId: string): Promise<string>;
  test(server: McpServerConfig): Promise<McpTestReport>;
  signOut(serverId: string): Promise<string>;
} {
  const [servers, setServers] = useState<McpServerConfig[]>();
  useEffect(() => {
    const refresh = () => void mcpServers.load().then(setServers);
    refresh();
    extensionKeyValueStore.onChange(MCP_SERVERS_KEY, refresh);
  }, []);
  return {
    servers,
    async save(server) {
      const permission = requestMcpHost(server);
      setServers(await mcpServers.save(server));
      return `Saved ${server.name}.${await permission}`;
    },
    async remove(serverId) {
      const name = servers?.find((server) => server.id === serverId)?.name ?? serverId;
      setServers(await mcpServers.remove(serverId));
      await mcpOAuthStore.forget(serverId);
      return `Removed ${name}.`;
    },
    async test(server) {
      await requestMcpHost(server);
      return testWithSignIn(server);
    },
    async signOut(serverId) {
      const signedIn = await mcpOAuthStore.signedIn(serverId);
      await mcpOAuthStore.forget(serverId);
      return signedIn ? 'Signed out: the tokens are deleted from this browser.' : 'Not signed in.';
    },
  };
}
