import { z } from 'zod';

/** How a compaction's summary was written: by the model in a request of its own, or by the deterministic digest. */
export const COMPACTION_METHODS = ['model', 'digest'] as const;

/**
 * `context/compacted`: what earlier requests sent is replaced, in every later request, by `summary`. The cut is the
 * end of turn `throughTurnId` or, with `throughStepId`, the end of that step inside it: everything before it in the
 * conversation (an earlier compaction's summary included) is covered. The seq range it was made from is the event's
 * position in the log (after the previous compaction, before itself), so the reducer derives it; the log keeps every
 * event, so what was summarised can always be shown.
 */
export function contextEventSchemas<TEnvelope extends z.ZodRawShape>(envelope: TEnvelope, id: z.ZodString) {
  const tokens = z.number().int().nonnegative();
  return [
    z.object({
      ...envelope,
      compactionId: id,
      type: z.literal('context/compacted'),
      data: z.object({
        throughTurnId: id,
        throughStepId: id.optional(),
        summary: z.string().min(1).max(200_000),
        /** The estimated tokens of the summary, and of what it replaces, in the request that was about to be sent. */
        summaryTokens: tokens,
        coveredTokens: tokens,
        method: z.enum(COMPACTION_METHODS),
        /** `threshold`: the next request would have passed the window's threshold; `user`: asked for in the panel. */
        trigger: z.enum(['threshold', 'user']),
        /** Why the model's summary was not used, when the digest was. */
        fallbackReason: z.string().max(2000).optional(),
      }),
    }),
  ] as const;
}
