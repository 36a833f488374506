import type { SearchShardRow, SearchShardStore } from '../protocol/search-shard-row';

export class MemorySearchShardStore implements SearchShardStore {
  readonly rows = new Map<string, SearchShardRow>();
  async read(sessionId: string): Promise<unknown> {
    return this.rows.get(sessionId);
  }
  async put(rows: readonly SearchShardRow[]): Promise<void> {
    for (const row of rows) this.rows.set(row.sessionId, row);
  }
  async delete(sessionId: string): Promise<void> {
    this.rows.delete(sessionId);
  }
}
