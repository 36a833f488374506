import type { SearchShardRow, SearchShardStore } from '../protocol/search-shard-row';
import { openSplitbrainDatabase, type SplitbrainDatabase } from './dexie-event-store';

/** The search index's rows in the log's database; a deleted conversation's row goes with its log. */
export class DexieSearchShards implements SearchShardStore {
  constructor(private readonly database: SplitbrainDatabase = openSplitbrainDatabase()) {}

  read(sessionId: string): Promise<unknown> {
    return this.database.searchShards.get(sessionId);
  }

  async put(rows: readonly SearchShardRow[]): Promise<void> {
    await this.database.searchShards.bulkPut([...rows]);
  }

  async delete(sessionId: string): Promise<void> {
    await this.database.searchShards.delete(sessionId);
  }
}
