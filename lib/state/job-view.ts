import type { OutputSummary } from '../protocol/job-events';
import type { JobState } from '../jobs/job-ledger';

/** One live chunk: the bytes [from, to) of the job's output. */
export interface LiveChunk {
  from: number;
  to: number;
  text: string;
}

export interface JobView {
  jobId: string;
  turnId?: string;
  toolCallId?: string;
  state: JobState;
  code: string;
  background: boolean;
  timeoutMs: number;
  createdAt: number;
  endedAt?: number;
  /** A bounded tail of the live output (at most JOB_LIMITS.panelTailBytes plus one chunk); live only. */
  live: LiveChunk[];
  /** Every byte printed so far, as the host last said. */
  totalBytes: number;
  /** The durable summary, once the job has ended. */
  output?: OutputSummary;
  result?: string;
  resultBytes?: number;
  failure?: { reason: string; message: string; stack?: string };
  killedBy?: 'user' | 'turn-cancelled';
  orphanedBecause?: string;
}

/** The bytes the panel holds of a running job, and how many it does not. */
export function liveWindow(job: Pick<JobView, 'live' | 'totalBytes'>): { from: number; to: number; dropped: number } {
  const first = job.live[0];
  const last = job.live.at(-1);
  if (!first || !last) return { from: job.totalBytes, to: job.totalBytes, dropped: job.totalBytes };
  const kept = job.live.reduce((sum, chunk) => sum + chunk.to - chunk.from, 0);
  return { from: first.from, to: last.to, dropped: job.totalBytes - kept };
}
