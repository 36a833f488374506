import type { McpTransportFactory } from './mcp-connection';
import { mcpHttpTransport } from './mcp-http-transport';
import { mcpOAuthProvider, type McpOAuthProviderOptions } from './mcp-oauth-provider';

/**
 * The HTTP transports, with an OAuth provider for the servers whose auth is `oauth`. Each connection gets its own
 * provider (the sign-in's state and verifier belong to one flow); the grants they share are in the store.
 */
export function mcpOAuthTransport(options: Omit<McpOAuthProviderOptions, 'serverName'>): McpTransportFactory {
  return (config) =>
    mcpHttpTransport(
      config,
      config.auth === 'oauth' ? mcpOAuthProvider(config.id, { ...options, serverName: config.name }) : undefined,
    );
}
