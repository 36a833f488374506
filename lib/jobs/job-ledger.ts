import type { AgentEvent, AgentEventOf } from '../protocol/agent-event';
import { JOB_FINAL_TYPES } from '../protocol/job-events';

export type JobState = 'created' | 'running' | 'stopping' | 'completed' | 'failed' | 'killed' | 'orphaned';
export type JobFinalEvent = AgentEventOf<(typeof JOB_FINAL_TYPES)[number]>;

export interface JobRecord {
  jobId: string;
  turnId?: string;
  toolCallId?: string;
  background: boolean;
  state: JobState;
  createdAt: number;
  /** The command that is stopping it, while it is `stopping`. */
  stoppingCommandId?: string;
  final?: JobFinalEvent;
}

const FINAL_TYPES = new Set<string>(JOB_FINAL_TYPES);

export function isJobFinalEvent(event: AgentEvent): event is JobFinalEvent {
  return FINAL_TYPES.has(event.type);
}

/** One session's jobs as its log says: state, turn, call and final event. A job has at most one final state. */
export class JobLedger {
  private readonly jobs = new Map<string, JobRecord>();

  observe(event: AgentEvent): void {
    if (event.type === 'job/created') {
      if (this.jobs.has(event.jobId)) return;
      this.jobs.set(event.jobId, {
        jobId: event.jobId,
        ...(event.turnId ? { turnId: event.turnId } : {}),
        ...(event.toolCallId ? { toolCallId: event.toolCallId } : {}),
        background: event.data.background,
        state: 'created',
        createdAt: event.time,
      });
      return;
    }
    if (!('jobId' in event) || event.type === 'job-command/state') return;
    const job = this.jobs.get(event.jobId);
    if (!job || job.final) return;
    if (event.type === 'job/running' && job.state === 'created') job.state = 'running';
    if (event.type === 'job/stopping') {
      job.state = 'stopping';
      job.stoppingCommandId = event.commandId;
    }
    if (isJobFinalEvent(event)) {
      job.state = event.type.slice('job/'.length) as JobState;
      job.final = event;
    }
  }

  get(jobId: string): JobRecord | undefined {
    return this.jobs.get(jobId);
  }

  open(): JobRecord[] {
    return [...this.jobs.values()].filter((job) => !job.final);
  }

  ofToolCall(toolCallId: string): JobRecord | undefined {
    return [...this.jobs.values()].find((job) => job.toolCallId === toolCallId);
  }

  /** Every job as a snapshot keeps it. */
  stored(): JobRecord[] {
    return structuredClone([...this.jobs.values()]);
  }

  static restored(records: readonly (Omit<JobRecord, 'final'> & { final?: AgentEvent })[]): JobLedger {
    const ledger = new JobLedger();
    for (const { final, ...record } of structuredClone(records))
      ledger.jobs.set(record.jobId, { ...record, ...(final && isJobFinalEvent(final) ? { final } : {}) });
    return ledger;
  }

  ids(): string[] {
    return [...this.jobs.keys()];
  }
}
