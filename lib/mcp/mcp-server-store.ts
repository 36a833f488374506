import type { KeyValueStore } from '../storage/key-value-store';
import { mcpServerListSchema, type McpServerConfig } from './mcp-server-config';

export const MCP_SERVERS_KEY = 'mcpServers';

/**
 * The user's MCP servers in extension storage (local, never synced or exported: headers hold API keys). A stored
 * list that does not parse reads as no servers, so a broken entry connects nothing rather than something wrong.
 */
export class McpServerStore {
  private cached: Promise<McpServerConfig[]> | undefined;

  constructor(private readonly storage: KeyValueStore) {
    storage.onChange(MCP_SERVERS_KEY, () => (this.cached = undefined));
  }

  load(): Promise<McpServerConfig[]> {
    const loading = (this.cached ??= this.storage.get(MCP_SERVERS_KEY).then((stored) => {
      const parsed = mcpServerListSchema.safeParse(stored ?? []);
      return parsed.success ? parsed.data : [];
    }));
    loading.catch(() => {
      if (this.cached === loading) this.cached = undefined;
    });
    return loading;
  }

  /** Saves one server (replacing the one with its id); the caller has asked for its origin's host permission. */
  async save(server: McpServerConfig): Promise<McpServerConfig[]> {
    const servers = (await this.load()).filter((existing) => existing.id !== server.id);
    const next = mcpServerListSchema.parse([...servers, server]);
    await this.storage.set(MCP_SERVERS_KEY, next);
    this.cached = Promise.resolve(next);
    return next;
  }

  async remove(serverId: string): Promise<McpServerConfig[]> {
    const next = (await this.load()).filter((existing) => existing.id !== serverId);
    await this.storage.set(MCP_SERVERS_KEY, next);
    this.cached = Promise.resolve(next);
    return next;
  }
}
