import { useEffect, useState } from 'react';
import browser from 'webextension-polyfill';
import { mcpHttpTransport } from '@/lib/mcp/mcp-http-transport';
import { mcpServerOrigin, type McpServerConfig } from '@/lib/mcp/mcp-server-config';
import { MCP_SERVERS_KEY, McpServerStore } from '@/lib/mcp/mcp-server-store';
import { testMcpServer, type McpTestReport } from '@/lib/mcp/mcp-test-report';
import { isLoopbackUrl } from '@/lib/providers/loopback-url';
import { extensionKeyValueStore } from '../shared/extension-key-value-store';

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

/** The stored MCP servers, kept current, with save (host asked first), remove and Test connection. */
export function useMcpServers(): {
  servers: McpServerConfig[] | undefined;
  save(server: McpServerConfig): Promise<string>;
  remove(serverId: string): Promise<string>;
  test(server: McpServerConfig): Promise<McpTestReport>;
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
      return `Removed ${name}.`;
    },
    async test(server) {
      await requestMcpHost(server);
      return testMcpServer(server, mcpHttpTransport);
    },
  };
}
