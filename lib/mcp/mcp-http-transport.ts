import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpTransportFactory } from './mcp-connection';

/**
 * The SDK's HTTP transports for a configured server: Streamable HTTP, or the legacy HTTP+SSE one when the user
 * picked it. The headers (an API key) go on every request and nowhere else.
 */
export const mcpHttpTransport: McpTransportFactory = (config) => {
  const url = new URL(config.url);
  const requestInit: RequestInit = { headers: config.headers };
  return config.transport === 'sse'
    ? new SSEClientTransport(url, {
        requestInit,
        eventSourceInit: {
          fetch: (input, init) =>
            fetch(input, { ...init, headers: { ...config.headers, ...(init?.headers as Record<string, string>) } }),
        },
      })
    : new StreamableHTTPClientTransport(url, { requestInit });
};
