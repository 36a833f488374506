import type { KeyValueStore } from '../storage/key-value-store';
import { mcpAppGrantListSchema, type McpAppGrant } from '../protocol/mcp-app-grant';

export const MCP_APP_GRANTS_KEY = 'mcpAppGrants';

function sameGrant(left: McpAppGrant, right: McpAppGrant): boolean {
  return left.serverId === right.serverId && left.resourceUri === right.resourceUri && left.origin === right.origin;
}

/**
 * The origins the user granted MCP Apps, per server and `ui://` resource, in extension storage (local, remembered
 * across conversations). A stored list that does not parse reads as no grants: a broken entry opens nothing.
 */
export class McpAppGrantStore {
  constructor(private readonly storage: KeyValueStore) {}

  async list(): Promise<McpAppGrant[]> {
    const parsed = mcpAppGrantListSchema.safeParse((await this.storage.get(MCP_APP_GRANTS_KEY)) ?? []);
    return parsed.success ? parsed.data : [];
  }

  /** The origins granted to one server's resource. */
  async granted(serverId: string, resourceUri: string): Promise<string[]> {
    return (await this.list())
      .filter((grant) => grant.serverId === serverId && grant.resourceUri === resourceUri)
      .map((grant) => grant.origin);
  }

  /** Grants or revokes one origin; the list after. */
  async set(grant: McpAppGrant, granted: boolean): Promise<McpAppGrant[]> {
    const others = (await this.list()).filter((known) => !sameGrant(known, grant));
    const next = mcpAppGrantListSchema.parse(granted ? [...others, grant] : others);
    await this.storage.set(MCP_APP_GRANTS_KEY, next);
    return next;
  }
}
