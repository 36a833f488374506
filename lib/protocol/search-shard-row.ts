import { z } from 'zod';

/** The format of a stored shard; a row of another format is rebuilt from the log, never read. */
export const SEARCH_SHARD_FORMAT = 1;

/** One conversation's index as stored: MiniSearch's own JSON, and the last seq it covers. */
export const searchShardRowSchema = z.object({
  sessionId: z.string().min(1),
  throughSeq: z.number().int().nonnegative(),
  turns: z.number().int().nonnegative(),
  format: z.literal(SEARCH_SHARD_FORMAT),
  index: z.string(),
});
export type SearchShardRow = z.infer<typeof searchShardRowSchema>;

/** Where shards are kept (IndexedDB in the extension, memory in tests); rows come back unchecked. */
export interface SearchShardStore {
  read(sessionId: string): Promise<unknown>;
  put(rows: readonly SearchShardRow[]): Promise<void>;
  delete(sessionId: string): Promise<void>;
}
