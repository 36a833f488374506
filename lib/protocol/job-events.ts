import { z } from 'zod';

/** The byte window of a job's output that was kept; `from` and `to` count UTF-8 bytes from the job's first byte. */
export const outputExcerptSchema = z.object({
  text: z.string(),
  from: z.number().int().nonnegative(),
  to: z.number().int().nonnegative(),
});

/** What a finished job kept of its output: its first and last bytes, how many there were, how many were dropped. */
export const outputSummarySchema = z.object({
  totalBytes: z.number().int().nonnegative(),
  head: outputExcerptSchema,
  tail: outputExcerptSchema,
  droppedBytes: z.number().int().nonnegative(),
});
export type OutputSummary = z.infer<typeof outputSummarySchema>;

export const JOB_FAILURE_REASONS = ['exception', 'timeout', 'memory', 'host'] as const;
export const jobFailureReasonSchema = z.enum(JOB_FAILURE_REASONS);
export type JobFailureReason = z.infer<typeof jobFailureReasonSchema>;

/** Who stopped a killed job: the user (Stop, or the model's cancelJob) or the cancel of its turn. */
export const jobKillCauseSchema = z.enum(['user', 'turn-cancelled']);

export const JOB_FINAL_TYPES = ['job/completed', 'job/failed', 'job/killed', 'job/orphaned'] as const;

/**
 * The job/* events, built on agent-event.ts's envelope (passed in, so the two files do not import each
 * other): `created → running → stopping → killed`, `running → completed | failed`, or `orphaned`.
 */
export function jobEventSchemas<TEnvelope extends z.ZodRawShape>(envelope: TEnvelope, id: z.ZodString) {
  const event = <TType extends string, TShape extends z.ZodRawShape, TData extends z.ZodType>(
    type: TType,
    ids: TShape,
    data: TData,
  ) => z.object({ ...envelope, ...ids, type: z.literal(type), data });
  const jobIds = { jobId: id };
  return [
    event(
      'job/created',
      { jobId: id, turnId: id.optional(), toolCallId: id.optional() },
      z.object({
        code: z.string().max(20_000),
        background: z.boolean(),
        timeoutMs: z.number().int().positive(),
        outputLimitBytes: z.number().int().positive(),
      }),
    ),
    event('job/running', jobIds, z.object({})),
    /** Live only: the bytes from `offset` on, as far as the host sent them; `totalBytes` counts every byte printed so far. */
    event(
      'job/output',
      jobIds,
      z.object({
        index: z.number().int().nonnegative(),
        offset: z.number().int().nonnegative(),
        text: z.string(),
        totalBytes: z.number().int().nonnegative(),
      }),
    ),
    event('job/stopping', { jobId: id, commandId: id }, z.object({})),
    event(
      'job/completed',
      jobIds,
      z.object({
        result: z.string(),
        resultBytes: z.number().int().nonnegative(),
        output: outputSummarySchema,
        durationMs: z.number().nonnegative(),
      }),
    ),
    event(
      'job/failed',
      jobIds,
      z.object({
        reason: jobFailureReasonSchema,
        message: z.string().max(4000),
        stack: z.string().max(8000).optional(),
        output: outputSummarySchema,
        durationMs: z.number().nonnegative(),
      }),
    ),
    event(
      'job/killed',
      { jobId: id, commandId: id.optional() },
      z.object({ cause: jobKillCauseSchema, output: outputSummarySchema, durationMs: z.number().nonnegative() }),
    ),
    event('job/orphaned', jobIds, z.object({ reason: z.string().max(2000) })),
    /** A cancel aimed at a job: applied (it was stopped), or stale (it had already ended; `jobState` says how). */
    event(
      'job-command/state',
      { commandId: id, jobId: id },
      z.object({
        state: z.enum(['accepted', 'applied', 'stale', 'rejected']),
        jobState: z.string().max(100),
      }),
    ),
  ] as const;
}

/** Every job event is the runtime's: a client may not append one. */
export const JOB_EVENT_TYPES = [
  'job/created',
  'job/running',
  'job/output',
  'job/stopping',
  ...JOB_FINAL_TYPES,
  'job-command/state',
] as const;
