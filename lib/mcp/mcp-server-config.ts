import { z } from 'zod';

/** A server's own approval choice for one tool; absent means the default from the tool's annotations. */
export const mcpToolModeSchema = z.enum(['ask', 'allow']);
export type McpToolMode = z.infer<typeof mcpToolModeSchema>;

const headerName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'Not a valid HTTP header name.');

/**
 * One MCP server as the user configured it, kept in extension storage. `headers` may hold secrets (an API
 * key), so a config is never written to the event log or into an export: only `id` and `name` are.
 */
export const mcpServerConfigSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'Lowercase letters, digits and dashes, up to 32.'),
  name: z.string().min(1).max(80),
  url: z
    .string()
    .url()
    .refine((url) => /^https?:$/.test(new URL(url).protocol), 'Only http and https URLs.'),
  transport: z.enum(['streamable-http', 'sse']).default('streamable-http'),
  headers: z.record(headerName, z.string().max(4000)).default({}),
  /** `oauth`: the server's authorization server is asked for a token (OAuth 2.1, PKCE, dynamic registration). */
  auth: z.enum(['headers', 'oauth']).default('headers'),
  enabled: z.boolean().default(true),
  toolModes: z.record(z.string(), mcpToolModeSchema).default({}),
  /** Whether every tool of the server asks, whatever its annotations say. */
  alwaysAsk: z.boolean().default(false),
});
export type McpServerConfig = z.infer<typeof mcpServerConfigSchema>;

export const mcpServerListSchema = z.array(mcpServerConfigSchema).max(50);

/** The origin a server's host permission is asked for on save, as for endpoints. */
export function mcpServerOrigin(config: Pick<McpServerConfig, 'url'>): string {
  return `${new URL(config.url).origin}/*`;
}

/** What may leave extension storage (the log, an export): never the URL's credentials or the headers. */
export function mcpServerPublicView(config: McpServerConfig): { id: string; name: string } {
  return { id: config.id, name: config.name };
}
