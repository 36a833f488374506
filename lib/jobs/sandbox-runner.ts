import { JOB_LIMITS } from './job-limits';
import { OutputWindow } from './output-window';
import { workerSource } from './worker-source';
import {
  jobWorkerMessageSchema,
  type JobHostReport,
  type JobOutcome,
  type JobStartSpec,
} from '../protocol/job-host-wire';

/** The part of a Worker the runner uses. */
export interface ScriptWorker {
  terminate(): void;
  onMessage(listener: (data: unknown) => void): void;
  /** An uncaught error, or a script the browser does not parse (checked by the parser first, so a rare one). */
  onError(listener: (error: { message: string }) => void): void;
}

export interface SandboxRunnerDependencies {
  spawn(source: string): ScriptWorker;
  send(report: JobHostReport): void;
  now(): number;
  setTimer(run: () => void, delayMs: number): unknown;
  clearTimer(handle: unknown): void;
}

interface RunningJob {
  spec: JobStartSpec;
  worker?: ScriptWorker;
  greeted: boolean;
  output: OutputWindow;
  startedAt: number;
  deadline: unknown;
  flusher: unknown;
}

/**
 * Runs each job in its own worker inside the sandbox frame: forwards its output live (bounded per flush), ends
 * it at its time limit, kills it on demand (terminate: no cooperation from the script needed), and reports one
 * outcome per job.
 */
export class SandboxRunner {
  private readonly jobs = new Map<string, RunningJob>();

  constructor(private readonly dependencies: SandboxRunnerDependencies) {}

  start(spec: JobStartSpec): void {
    if (this.jobs.has(spec.jobId)) return;
    const source = workerSource(spec.code, spec.input);
    const job: RunningJob = {
      spec,
      greeted: false,
      output: new OutputWindow(),
      startedAt: this.dependencies.now(),
      deadline: this.dependencies.setTimer(
        () => this.fail(spec.jobId, 'timeout', `Stopped after its time limit of ${spec.timeoutMs} ms.`),
        spec.timeoutMs,
      ),
      flusher: undefined,
    };
    this.jobs.set(spec.jobId, job);
    if (!source.ok) return this.fail(spec.jobId, 'exception', source.error);
    this.spawn(job, source.source);
    this.scheduleFlush(job);
  }

  kill(jobId: string): void {
    const job = this.jobs.get(jobId);
    if (!job) return;
    this.finish(job, { state: 'killed', ...this.common(job) });
  }

  private spawn(job: RunningJob, source: string): void {
    const worker = this.dependencies.spawn(source);
    job.worker = worker;
    worker.onMessage((data) => {
      if (this.jobs.get(job.spec.jobId) === job) this.receive(job, data);
    });
    worker.onError((error) => {
      if (this.jobs.get(job.spec.jobId) === job) this.fail(job.spec.jobId, 'exception', error.message);
    });
  }

  private receive(job: RunningJob, data: unknown): void {
    const parsed = jobWorkerMessageSchema.safeParse(data);
    if (!parsed.success) return;
    const message = parsed.data;
    switch (message.kind) {
      case 'hello':
        if (job.greeted) return;
        job.greeted = true;
        this.dependencies.send({ type: 'job-host/started', sessionId: job.spec.sessionId, jobId: job.spec.jobId });
        return;
      case 'output':
        job.output.append(message.text);
        return;
      case 'result': {
        const resultBytes = new TextEncoder().encode(message.json).length;
        this.finish(job, {
          state: 'completed',
          ...this.common(job),
          result: cutText(message.json, JOB_LIMITS.resultBytes),
          resultBytes,
        });
        return;
      }
      case 'error':
        this.fail(job.spec.jobId, 'exception', message.message, message.stack);
        return;
    }
  }

  private fail(jobId: string, reason: 'exception' | 'timeout', message: string, stack?: string): void {
    const job = this.jobs.get(jobId);
    if (!job) return;
    this.finish(job, {
      state: 'failed',
      ...this.common(job),
      reason,
      message: message.slice(0, 4000),
      ...(stack ? { stack: stack.slice(0, 8000) } : {}),
    });
  }

  private common(job: RunningJob) {
    return { sessionId: job.spec.sessionId, jobId: job.spec.jobId };
  }

  private finish(job: RunningJob, outcome: Omit<JobOutcome, 'output' | 'durationMs'> & Partial<JobOutcome>): void {
    job.worker?.terminate();
    this.jobs.delete(job.spec.jobId);
    this.dependencies.clearTimer(job.deadline);
    this.dependencies.clearTimer(job.flusher);
    this.flushLive(job);
    this.dependencies.send({
      type: 'job-host/finished',
      outcome: {
        ...outcome,
        output: job.output.summary(),
        durationMs: Math.max(0, this.dependencies.now() - job.startedAt),
      } as JobOutcome,
    });
  }

  private scheduleFlush(job: RunningJob): void {
    job.flusher = this.dependencies.setTimer(() => {
      if (!this.jobs.has(job.spec.jobId)) return;
      this.flushLive(job);
      this.scheduleFlush(job);
    }, JOB_LIMITS.liveFlushMs);
  }

  private flushLive(job: RunningJob): void {
    const live = job.output.takeLive();
    if (!live) return;
    this.dependencies.send({ type: 'job-host/output', sessionId: job.spec.sessionId, jobId: job.spec.jobId, ...live });
  }
}

/** At most `maxBytes` of UTF-8 of the text, cut at a character. */
export function cutText(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes) return text;
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= maxBytes) return text;
  return new TextDecoder().decode(bytes.subarray(0, maxBytes)).replace(/\uFFFD$/, '');
}
