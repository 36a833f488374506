import { z } from 'zod';
import type { JsonValue } from '../protocol/json-value';
import type { ToolOutput } from '../protocol/tool-output';
import { defineTool, type ExecutedTool, type ToolCall } from '../tool-family/tool-family';
import { JOB_LIMITS } from './job-limits';
import { runScriptInputSchema } from './run-script-input';
import type { JobControl } from './job-control';

/** What the job tools run on: the runtime's jobs. */
export type JobToolServices = Pick<
  JobControl,
  'unavailable' | 'ledger' | 'runScript' | 'status' | 'cancelTool' | 'recoverRunScript'
>;

export type JobTool = ExecutedTool<'jobs', JobToolServices>;

const jobStatusInputSchema = z.object({
  jobId: z.string().min(1).max(200).describe('The jobId that runScript returned.'),
});
const cancelJobInputSchema = z.object({ jobId: z.string().min(1).max(200).describe('The jobId of the job to stop.') });

export const runScriptTool = defineTool({
  name: 'runScript',
  description: `Run JavaScript in a sandbox in the user's browser (no network, no page, no storage, no extension API) and get its result and output (the first ${JOB_LIMITS.headBytes} and last ${JOB_LIMITS.tailBytes} bytes, with what was cut said in bytes). At most ${JOB_LIMITS.maxRunningPerSession} jobs run at once.`,
  inputSchema: runScriptInputSchema,
  sideEffect: 'side-effecting',
  runsOn: 'jobs',
  execute: async (_input, jobs: JobToolServices, { request }) => jobs.unavailable() ?? jobs.runScript(request),
  recover: (_input, jobs, { request }) => jobs.recoverRunScript(request),
});

export const jobStatusTool = defineTool({
  name: 'jobStatus',
  description:
    "Read a job's state (created, running, stopping, completed, failed, killed, orphaned), result and output.",
  inputSchema: jobStatusInputSchema,
  sideEffect: 'read-only',
  runsOn: 'jobs',
  execute: async (input, jobs: JobToolServices, { request }) => {
    const unavailable = jobs.unavailable();
    if (unavailable) return unavailable;
    const parsed = jobStatusInputSchema.safeParse(input);
    if (!parsed.success) return { ok: false, error: 'Invalid input for jobStatus: jobId is required.' };
    return jobs.status(request.sessionId, parsed.data.jobId);
  },
});

async function cancelJob(input: JsonValue, jobs: JobToolServices, { request }: ToolCall): Promise<ToolOutput> {
  const unavailable = jobs.unavailable();
  if (unavailable) return unavailable;
  const parsed = cancelJobInputSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: 'Invalid input for cancelJob: jobId is required.' };
  return jobs.cancelTool(request, parsed.data.jobId);
}

export const cancelJobTool = defineTool({
  name: 'cancelJob',
  description: 'Stop a running job. Cancelling a job that has already ended only reports its state.',
  inputSchema: cancelJobInputSchema,
  sideEffect: 'side-effecting',
  runsOn: 'jobs',
  execute: cancelJob,
  // Cancelling again is harmless: a job that has ended only reports its state.
  recover: async (input, jobs, call) => ({ kind: 'recovered', output: await cancelJob(input, jobs, call) }),
});

/** The tools that run code, in the order the model is told of them. */
export const jobToolFamily: readonly JobTool[] = [runScriptTool, jobStatusTool, cancelJobTool];
