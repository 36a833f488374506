import { z } from 'zod';
import { tokenUsageSchema } from './token-usage';

/** A session's row in the store: what the session list shows, and where its log ends. */
export const sessionRecordSchema = z.object({
  sessionId: z.string(),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  lastSeq: z.number(),
  /** The last batch a client appended, so a batch retried after a lost reply is not written twice. */
  lastBatchId: z.string().optional(),
  /** The sum of the usage its step/completed events report; absent in rows written before it was kept. */
  usage: tokenUsageSchema.optional(),
});
export type SessionRecord = z.infer<typeof sessionRecordSchema>;
