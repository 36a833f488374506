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
  /** Stopped from outside (Stop, the time limit, an error event): only its output still counts. */
  stopping: boolean;
  /** When the runner last heard from its worker. */
  heardAt: number;
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
        () => this.stop(job, failure(job, 'timeout', `Stopped after its time limit of ${spec.timeoutMs} ms.`)),
        spec.timeoutMs,
      ),
      flusher: undefined,
      stopping: false,
      heardAt: 0,
    };
    this.jobs.set(spec.jobId, job);
    if (!source.ok) return this.finish(job, failure(job, 'exception', source.error));
    this.spawn(job, source.source);
    this.scheduleFlush(job);
  }

  kill(jobId: string): void {
    const job = this.jobs.get(jobId);
    if (job) this.stop(job, { state: 'killed', ...common(job) });
  }

  /**
   * Ends a job from outside its worker: the worker is terminated at once, and the outcome is sent once the output
   * it posted before (still arriving over its port) has stopped coming in, for at most `drainMaxMs`.
   */
  private stop(job: RunningJob, outcome: EndingOutcome): void {
    if (job.stopping) return;
    job.stopping = true;
    job.worker?.terminate();
    this.dependencies.clearTimer(job.deadline);
    const stoppedAt = this.dependencies.now();
    job.heardAt = stoppedAt;
    const check = () => {
      const now = this.dependencies.now();
      const quietFor = now - job.heardAt;
      if (quietFor >= JOB_LIMITS.drainQuietMs || now - stoppedAt >= JOB_LIMITS.drainMaxMs) this.finish(job, outcome);
      else job.deadline = this.dependencies.setTimer(check, JOB_LIMITS.drainQuietMs - quietFor);
    };
    job.deadline = this.dependencies.setTimer(check, JOB_LIMITS.drainQuietMs);
  }

  private spawn(job: RunningJob, source: string): void {
    const worker = this.dependencies.spawn(source);
    job.worker = worker;
    worker.onMessage((data) => {
      if (this.jobs.get(job.spec.jobId) === job) this.receive(job, data);
    });
    worker.onError((error) => {
      if (this.jobs.get(job.spec.jobId) === job) this.stop(job, failure(job, 'exception', error.message));
    });
  }

  private receive(job: RunningJob, data: unknown): void {
    const parsed = jobWorkerMessageSchema.safeParse(data);
    if (!parsed.success) return;
    const message = parsed.data;
    job.heardAt = this.dependencies.now();
    if (job.stopping && message.kind !== 'output') return;
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
          ...common(job),
          result: cutText(message.json, JOB_LIMITS.resultBytes),
          resultBytes,
        });
        return;
      }
      case 'error':
        this.finish(job, failure(job, 'exception', message.message, message.stack));
        return;
    }
  }

  private finish(job: RunningJob, outcome: EndingOutcome): void {
    if (this.jobs.get(job.spec.jobId) !== job) return;
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

type EndingOutcome = Omit<JobOutcome, 'output' | 'durationMs'> & Partial<JobOutcome>;

function common(job: RunningJob) {
  return { sessionId: job.spec.sessionId, jobId: job.spec.jobId };
}

function failure(job: RunningJob, reason: 'exception' | 'timeout', message: string, stack?: string): EndingOutcome {
  return {
    state: 'failed',
    ...common(job),
    reason,
    message: message.slice(0, 4000),
    ...(stack ? { stack: stack.slice(0, 8000) } : {}),
  };
}

/** At most `maxBytes` of UTF-8 of the text, cut at a character. */
export function cutText(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes) return text;
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= maxBytes) return text;
  return new TextDecoder().decode(bytes.subarray(0, maxBytes)).replace(/\uFFFD$/, '');
}
