import { liveWindow, type JobView } from '../state/job-view';

export const JOB_STATE_LABEL: Record<JobView['state'], string> = {
  created: 'Starting',
  running: 'Running',
  stopping: 'Stopping',
  completed: 'Completed',
  failed: 'Failed',
  killed: 'Killed',
  orphaned: 'Orphaned',
};

export function isJobActive(job: Pick<JobView, 'state'>): boolean {
  return job.state === 'created' || job.state === 'running' || job.state === 'stopping';
}

export interface JobOutputView {
  lines: string[];
  /** One sentence saying which bytes are shown and how many are not. */
  range: string;
  droppedBytes: number;
}

function bytes(count: number): string {
  return `${count.toLocaleString('en-US')} B`;
}

/** The output lines a card shows, and the sentence that says what was kept: never presented as complete when it is not. */
export function jobOutputView(job: JobView): JobOutputView {
  if (job.output) {
    const { head, tail, totalBytes, droppedBytes } = job.output;
    const text =
      droppedBytes > 0 ? `${head.text}\n[… ${bytes(droppedBytes)} dropped …]\n${tail.text}` : head.text + tail.text;
    const range =
      droppedBytes > 0
        ? `Kept bytes ${head.from}–${head.to} and ${tail.from}–${tail.to} of ${bytes(totalBytes)}; ${bytes(droppedBytes)} dropped.`
        : `All ${bytes(totalBytes)} kept.`;
    return { lines: splitLines(text), range, droppedBytes };
  }
  const window = liveWindow(job);
  const text = job.live.map((chunk) => chunk.text).join('');
  const range =
    window.dropped > 0
      ? `Live: showing bytes ${window.from}–${window.to} of ${bytes(job.totalBytes)}; ${bytes(window.dropped)} dropped.`
      : `Live: all ${bytes(job.totalBytes)} shown.`;
  return { lines: splitLines(text), range, droppedBytes: window.dropped };
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

export function jobEndSummary(job: JobView): string | undefined {
  if (job.state === 'completed') return job.result !== undefined ? `Result: ${job.result}` : undefined;
  if (job.state === 'failed' && job.failure) return `${job.failure.reason}: ${job.failure.message}`;
  if (job.state === 'killed')
    return job.killedBy === 'turn-cancelled' ? 'Stopped with its turn.' : 'Stopped by the user.';
  if (job.state === 'orphaned') return job.orphanedBecause;
  return undefined;
}
