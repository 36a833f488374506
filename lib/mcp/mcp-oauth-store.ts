import {
  OAuthClientInformationFullSchema,
  OAuthClientInformationSchema,
  OAuthTokensSchema,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { z } from 'zod';
import type { KeyValueStore } from '../storage/key-value-store';

export const MCP_OAUTH_KEY = 'mcpOAuth';

/**
 * What one server's sign-in left: the client registered with its authorization server (kept as `auth()` gave it,
 * with the `issuer` it is bound to) and the tokens, with when the access token expires.
 */
export const mcpOAuthGrantSchema = z.object({
  client: z.union([OAuthClientInformationFullSchema, OAuthClientInformationSchema]).optional(),
  tokens: OAuthTokensSchema.optional(),
  /** Milliseconds since the epoch; absent when the server did not say (`expires_in`). */
  expiresAt: z.number().optional(),
});
export type McpOAuthGrant = z.infer<typeof mcpOAuthGrantSchema>;

const grantsSchema = z.record(z.string(), z.unknown());

/**
 * The OAuth grants of the user's MCP servers in extension storage, by server id: apart from the servers' config,
 * so tokens never travel with it, and never written to the log or an export. An entry that does not parse reads
 * as none (a new sign-in), never as a half-valid token.
 */
export class McpOAuthStore {
  constructor(private readonly storage: KeyValueStore) {}

  private async all(): Promise<Record<string, unknown>> {
    const parsed = grantsSchema.safeParse((await this.storage.get(MCP_OAUTH_KEY)) ?? {});
    return parsed.success ? parsed.data : {};
  }

  async grant(serverId: string): Promise<McpOAuthGrant> {
    const parsed = mcpOAuthGrantSchema.safeParse((await this.all())[serverId] ?? {});
    return parsed.success ? parsed.data : {};
  }

  async update(serverId: string, change: (grant: McpOAuthGrant) => McpOAuthGrant): Promise<void> {
    const grants = await this.all();
    const parsed = mcpOAuthGrantSchema.safeParse(grants[serverId] ?? {});
    const next = change(parsed.success ? parsed.data : {});
    await this.storage.set(MCP_OAUTH_KEY, { ...grants, [serverId]: next });
  }

  /** Signs out: the tokens and the registered client are forgotten; the next connection signs in anew. */
  async forget(serverId: string): Promise<void> {
    const grants = await this.all();
    if (!(serverId in grants)) return;
    const { [serverId]: _forgotten, ...rest } = grants;
    await this.storage.set(MCP_OAUTH_KEY, rest);
  }

  async signedIn(serverId: string): Promise<boolean> {
    return (await this.grant(serverId)).tokens !== undefined;
  }
}
