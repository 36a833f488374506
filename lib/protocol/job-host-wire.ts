import { z } from 'zod';
import { jobFailureReasonSchema, outputSummarySchema } from './job-events';
import { jsonValueSchema } from './json-value';

const id = z.string().min(1).max(200);

export const jobStartSpecSchema = z.object({
  sessionId: id,
  jobId: id,
  code: z.string().max(100_000),
  input: jsonValueSchema,
  timeoutMs: z.number().int().positive(),
});
export type JobStartSpec = z.infer<typeof jobStartSpecSchema>;

/** How a job ended in its host; the runtime turns it into job/completed, job/failed or job/killed. */
export const jobOutcomeSchema = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('completed'),
    sessionId: id,
    jobId: id,
    result: z.string(),
    resultBytes: z.number().int().nonnegative(),
    output: outputSummarySchema,
    durationMs: z.number().nonnegative(),
  }),
  z.object({
    state: z.literal('failed'),
    sessionId: id,
    jobId: id,
    reason: jobFailureReasonSchema,
    message: z.string().max(4000),
    stack: z.string().max(8000).optional(),
    output: outputSummarySchema,
    durationMs: z.number().nonnegative(),
  }),
  z.object({
    state: z.literal('killed'),
    sessionId: id,
    jobId: id,
    output: outputSummarySchema,
    durationMs: z.number().nonnegative(),
  }),
]);
export type JobOutcome = z.infer<typeof jobOutcomeSchema>;

/** Runtime → job host (the `jobs` port), and job host page → sandbox frame. */
export const jobHostCommandSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('job-host/start'), spec: jobStartSpecSchema }),
  z.object({ type: z.literal('job-host/kill'), jobId: id }),
  /** The runtime recorded the job's final state: the host may forget its outcome. */
  z.object({ type: z.literal('job-host/acknowledge'), jobId: id }),
]);
export type JobHostCommand = z.infer<typeof jobHostCommandSchema>;

export const jobHostReportSchema = z.discriminatedUnion('type', [
  /** Sent on every (re)connect: what runs there now, and outcomes the runtime has not acknowledged yet. */
  z.object({
    type: z.literal('job-host/hello'),
    running: z.array(z.object({ sessionId: id, jobId: id })).max(1000),
    finished: z.array(jobOutcomeSchema).max(1000),
  }),
  z.object({ type: z.literal('job-host/started'), sessionId: id, jobId: id }),
  z.object({
    type: z.literal('job-host/output'),
    sessionId: id,
    jobId: id,
    offset: z.number().int().nonnegative(),
    text: z.string().max(1_000_000),
    totalBytes: z.number().int().nonnegative(),
  }),
  z.object({ type: z.literal('job-host/finished'), outcome: jobOutcomeSchema }),
]);
export type JobHostReport = z.infer<typeof jobHostReportSchema>;

/** Sandbox frame ⇄ host page messages carry this tag; the host also checks `event.source`. */
export const JOB_SANDBOX_SOURCE = 'splitbrain-job-sandbox';

/** What the script's worker posts to the sandbox frame. The frame trusts none of it beyond this shape. */
export const jobWorkerMessageSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('hello') }),
  z.object({ kind: z.literal('output'), text: z.string() }),
  z.object({ kind: z.literal('result'), json: z.string() }),
  z.object({ kind: z.literal('error'), message: z.string(), stack: z.string().optional() }),
]);
export type JobWorkerMessage = z.infer<typeof jobWorkerMessageSchema>;
