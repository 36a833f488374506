import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from './mcp-server-config';

/**
 * The SDK's HTTP transports for a configured server: Streamable HTTP, or the legacy HTTP+SSE one when the user
 * picked it. The headers (an API key) go on every request and nowhere else. With an OAuth provider the SDK adds
 * its bearer token, and on a 401 refreshes it (or asks the provider to sign in) and sends again.
 */
export function mcpHttpTransport(config: McpServerConfig, authProvider?: OAuthClientProvider): Transport {
  const url = new URL(config.url);
  const requestInit: RequestInit = { headers: config.headers };
  const auth = authProvider ? { authProvider } : {};
  return config.transport === 'sse'
    ? new SSEClientTransport(url, {
        requestInit,
        ...auth,
        eventSourceInit: {
          fetch: (input, init) =>
            fetch(input, { ...init, headers: { ...config.headers, ...(init?.headers as Record<string, string>) } }),
        },
      })
    : new StreamableHTTPClientTransport(url, { requestInit, ...auth });
}
