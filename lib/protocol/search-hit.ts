import { z } from 'zod';

/** One place a search found: a conversation, the event that holds the text, and what to show of it. */
export const searchHitSchema = z.object({
  sessionId: z.string(),
  /** The conversation's title, as the session list shows it. */
  title: z.string(),
  seq: z.number().int().nonnegative(),
  turnId: z.string().optional(),
  /** The turn's place in the conversation (0 for the first), so the panel can scroll to it before it is loaded. */
  turnPosition: z.number().int().nonnegative().optional(),
  kind: z.enum(['title', 'user', 'assistant', 'tool', 'page']),
  snippet: z.string(),
  /** The words of the query as they matched (after prefix and typo matching), for highlighting. */
  terms: z.array(z.string()),
  score: z.number(),
  /** When the conversation was last updated. */
  updatedAt: z.number(),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

export const searchResultSchema = z.object({
  hits: z.array(searchHitSchema),
  /** Conversations searched, and how long the query took in the runtime (for the panel's line under the box). */
  conversations: z.number().int().nonnegative(),
  /** Conversations not searched yet because their indexes were still loading: asking again searches more of them. */
  pending: z.number().int().nonnegative(),
  elapsedMs: z.number().nonnegative(),
});
export type SearchResult = z.infer<typeof searchResultSchema>;
