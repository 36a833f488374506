import type { AgentEventOf } from '../protocol/agent-event';
import { JOB_LIMITS } from '../jobs/job-limits';
import type { JobView, LiveChunk } from './job-view';
import type { EventAppliers } from './event-appliers';
import type { WorkingCopy } from './working-copy';

type JobEventType =
  | 'job/created'
  | 'job/running'
  | 'job/output'
  | 'job/stopping'
  | 'job/completed'
  | 'job/failed'
  | 'job/killed'
  | 'job/orphaned'
  | 'job-command/state';
type JobEvent = AgentEventOf<JobEventType>;

const FINAL = new Set(['completed', 'failed', 'killed', 'orphaned']);

/** Job events into the jobs table: nothing changes a job after its final state, and live output stays bounded. */
function applyJobEvent(copy: WorkingCopy, event: JobEvent): void {
  if (event.type === 'job-command/state') return;
  if (event.type === 'job/created') {
    if (copy.state.jobs[event.jobId]) return;
    copy.table('jobs')[event.jobId] = {
      jobId: event.jobId,
      ...(event.turnId ? { turnId: event.turnId } : {}),
      ...(event.toolCallId ? { toolCallId: event.toolCallId } : {}),
      state: 'created',
      code: event.data.code,
      background: event.data.background,
      timeoutMs: event.data.timeoutMs,
      createdAt: event.time,
      live: [],
      totalBytes: 0,
    };
    return;
  }
  const job = copy.state.jobs[event.jobId];
  if (!job || FINAL.has(job.state)) return;
  const change = jobChange(job, event);
  if (change) copy.table('jobs')[event.jobId] = { ...job, ...change };
}

function jobChange(
  job: JobView,
  event: Exclude<JobEvent, AgentEventOf<'job/created' | 'job-command/state'>>,
): Partial<JobView> | undefined {
  switch (event.type) {
    case 'job/running':
      return job.state === 'created' ? { state: 'running' } : undefined;
    case 'job/stopping':
      return { state: 'stopping' };
    case 'job/output':
      return appendLive(job, { from: event.data.offset, to: event.data.totalBytes, text: event.data.text });
    case 'job/completed':
      return {
        state: 'completed',
        endedAt: event.time,
        output: event.data.output,
        totalBytes: event.data.output.totalBytes,
        result: event.data.result,
        resultBytes: event.data.resultBytes,
      };
    case 'job/failed':
      return {
        state: 'failed',
        endedAt: event.time,
        output: event.data.output,
        totalBytes: event.data.output.totalBytes,
        failure: {
          reason: event.data.reason,
          message: event.data.message,
          ...(event.data.stack ? { stack: event.data.stack } : {}),
        },
      };
    case 'job/killed':
      return {
        state: 'killed',
        endedAt: event.time,
        output: event.data.output,
        totalBytes: event.data.output.totalBytes,
        killedBy: event.data.cause,
      };
    case 'job/orphaned':
      return { state: 'orphaned', endedAt: event.time, orphanedBecause: event.data.reason };
  }
}

/** A chunk the panel already has (a duplicate, a late one) changes nothing; the oldest chunks go past the bound. */
function appendLive(job: JobView, chunk: LiveChunk): Partial<JobView> | undefined {
  const end = job.live.at(-1)?.to ?? 0;
  if (chunk.to <= end || chunk.from < end) return undefined;
  const live = [...job.live, chunk];
  let kept = live.reduce((sum, part) => sum + part.to - part.from, 0);
  while (live.length > 1 && kept - (live[0].to - live[0].from) >= JOB_LIMITS.panelTailBytes) {
    kept -= live[0].to - live[0].from;
    live.shift();
  }
  return { live, totalBytes: Math.max(job.totalBytes, chunk.to) };
}

export const JOB_APPLIERS: EventAppliers<JobEventType> = {
  'job/created': applyJobEvent,
  'job/running': applyJobEvent,
  'job/output': applyJobEvent,
  'job/stopping': applyJobEvent,
  'job/completed': applyJobEvent,
  'job/failed': applyJobEvent,
  'job/killed': applyJobEvent,
  'job/orphaned': applyJobEvent,
  'job-command/state': applyJobEvent,
};
