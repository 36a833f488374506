import { z } from 'zod';
import type { JsonObject } from '../protocol/json-value';
import { defineTool } from '../tool-family/tool-family';
import type { JobRecord } from './job-ledger';
import type { JobToolServices } from './job-tool-family';

/** One job as listJobs tells of it; what was kept of its output is known once it has ended. */
function listedJob(job: JobRecord): JsonObject {
  const output = job.final && 'output' in job.final.data ? job.final.data.output : undefined;
  return {
    jobId: job.jobId,
    state: job.state,
    startedAt: new Date(job.createdAt).toISOString(),
    background: job.background,
    ...(output ? { outputBytesKept: output.totalBytes - output.droppedBytes, outputBytes: output.totalBytes } : {}),
  };
}

/** listJobs: the jobs of this conversation, from its log; reading it changes nothing, so a restart runs it again. */
export const listJobsTool = defineTool({
  name: 'listJobs',
  description:
    'List the jobs (runScript) of this conversation, oldest first: jobId, state, when it started, and for an ended job the bytes of output kept. Read one with jobStatus.',
  inputSchema: z.object({}),
  sideEffect: 'read-only',
  runsOn: 'jobs',
  approval: { offered: false },
  execute: async (_input, jobs: JobToolServices, { request }) => {
    const ledger = await jobs.ledger(request.sessionId);
    const listed = ledger.ids().flatMap((jobId) => {
      const job = ledger.get(jobId);
      return job ? [listedJob(job)] : [];
    });
    return { ok: true, jobs: listed };
  },
});
