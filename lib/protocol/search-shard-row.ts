import { z } from 'zod';

/**
 * The format of a stored shard; a row of another format is rebuilt from the log, never read. Format 1 held a
 * MiniSearch index; format 2 holds the conversation's searchable texts, indexed again when it loads.
 */
export const SEARCH_SHARD_FORMAT = 2;

export const searchKindSchema = z.enum(['title', 'user', 'assistant', 'tool', 'page']);
export type SearchKind = z.infer<typeof searchKindSchema>;

/** One searchable text of a conversation: what a result names and jumps to. */
export const searchDocumentSchema = z.object({
  /** Unique within its conversation: the event's seq and the text's place in it. */
  id: z.string(),
  seq: z.number().int().positive(),
  turnId: z.string().optional(),
  /** The turn's place in its conversation (0 for the first), filled in by the index. */
  turnPosition: z.number().int().nonnegative().optional(),
  kind: searchKindSchema,
  text: z.string(),
});
export type SearchDocument = z.infer<typeof searchDocumentSchema>;

/** One conversation's searchable texts as stored, and the last seq they cover. */
export const searchShardRowSchema = z.object({
  sessionId: z.string().min(1),
  throughSeq: z.number().int().nonnegative(),
  turns: z.number().int().nonnegative(),
  format: z.literal(SEARCH_SHARD_FORMAT),
  documents: z.array(searchDocumentSchema),
});
export type SearchShardRow = z.infer<typeof searchShardRowSchema>;

/** Where shards are kept (IndexedDB in the extension, memory in tests); rows come back unchecked. */
export interface SearchShardStore {
  read(sessionId: string): Promise<unknown>;
  put(rows: readonly SearchShardRow[]): Promise<void>;
  delete(sessionId: string): Promise<void>;
}
