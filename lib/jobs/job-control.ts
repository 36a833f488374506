import { JOB_LIMITS } from './job-limits';
import { jobCompletionNotice, jobReport } from './job-result';
import type { JobLedger, JobRecord } from './job-ledger';
import { EMPTY_OUTPUT } from './output-window';
import type { AgentEventDraft } from '../protocol/agent-event';
import type { JobHostReport, JobOutcome, JobStartSpec } from '../protocol/job-host-wire';
import type { JsonValue } from '../protocol/json-value';
import { runScriptInputSchema } from './run-script-input';
import type { ToolOutput } from '../protocol/tool-output';
import type { SessionLock } from '../session-log/session-lock';
import type { ToolExecutionRequest } from '../protocol/tool-execution-request';
import type { ToolRecovery } from '../tool-family/tool-family';
import { errorText } from '../protocol/error-text';
import { issuesText } from '../protocol/issue-text';

/** The runtime's end of the job host (an offscreen document in Chrome, a frame of the background page in Firefox). */
export interface JobHostDriver {
  /** Resolves once the host has the job; rejects when no host could be reached. */
  start(spec: JobStartSpec): Promise<void>;
  /** False: there is no host, so nothing runs that could be killed. */
  kill(jobId: string): Promise<boolean>;
  acknowledge(jobId: string): void;
  /** Jobs the host runs or has an unacknowledged outcome for; empty when there is no host. */
  knownJobs(): Promise<Set<string>>;
  onReport(listener: (report: JobHostReport) => void): void;
}

export interface JobControlAccess {
  lock: SessionLock;
  now(): number;
  newId(): string;
  commitDrafts(sessionId: string, drafts: AgentEventDraft[]): Promise<void>;
  /** The session's jobs as its log says (loads the session). */
  ledger(sessionId: string): Promise<JobLedger>;
  /** Sessions loaded in this runtime now. */
  loadedSessions(): string[];
  host?: JobHostDriver;
}

export type JobCommandResult = {
  commandId: string;
  jobId: string;
  state: 'applied' | 'stale' | 'rejected';
  jobState: string;
};

const KILL_ANSWER_MS = 3000;

function settlesWithin(promise: Promise<void>, delayMs: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), delayMs)));
  return Promise.race([promise.then(() => true), late]).finally(() => clearTimeout(timer));
}

const HOST_GONE = 'its host (the sandbox that ran it) is gone, so what happened to it cannot be known.';

/**
 * Jobs: runScript, jobStatus and cancelJob, and what the host reports. Every job event goes through here, under
 * the session's lock, and none is written after a job's final state.
 */
export class JobControl {
  private readonly pendingStarts = new Set<string>();
  private readonly waiters = new Map<string, (() => void)[]>();
  private readonly outputCounts = new Map<string, number>();

  constructor(private readonly access: JobControlAccess) {
    // A report the store refused to record (the disk is full) is not lost for good: the host's next hello lists
    // its finished jobs again, and the open ones are reconciled on the next load.
    access.host?.onReport((report) => void this.receive(report).catch(() => undefined));
  }

  /** Without a host nothing can run, so no job tool answers but this. */
  unavailable(): ToolOutput | undefined {
    return this.access.host ? undefined : { ok: false, error: 'Running code is not available in this build.' };
  }

  /** The session's jobs as its log says. */
  ledger(sessionId: string): Promise<JobLedger> {
    return this.access.ledger(sessionId);
  }

  /** cancelJob: stops the job, then reports it; a job this conversation does not have is reported as jobStatus would. */
  async cancelTool(request: ToolExecutionRequest, jobId: string): Promise<ToolOutput> {
    const result = await this.cancel(request.sessionId, jobId, this.access.newId());
    if (result.state === 'rejected') return this.status(request.sessionId, jobId);
    const job = (await this.access.ledger(request.sessionId)).get(jobId);
    return { ...(job ? await jobReport(job) : {}), ok: true, cancel: result.state, commandId: result.commandId };
  }

  /** After a restart: a started runScript's outcome is its job's final state; without one it is unknown, never run again. */
  async recoverRunScript(request: ToolExecutionRequest): Promise<ToolRecovery> {
    const job = (await this.access.ledger(request.sessionId)).ofToolCall(request.toolCallId);
    return job?.final ? { kind: 'recovered', output: await jobReport(job) } : { kind: 'unknown' };
  }

  async status(sessionId: string, jobId: string): Promise<ToolOutput> {
    const ledger = await this.access.ledger(sessionId);
    const job = ledger.get(jobId);
    if (!job)
      return {
        ok: false,
        error: `No job "${jobId}" in this conversation. Known jobs: ${ledger.ids().join(', ') || 'none'}.`,
      };
    return jobReport(job);
  }

  async runScript(request: ToolExecutionRequest): Promise<ToolOutput> {
    const parsed = runScriptInputSchema.safeParse(request.input);
    if (!parsed.success)
      return {
        ok: false,
        error: `Invalid input for runScript: ${issuesText(parsed.error.issues, { root: 'input' })}.`,
      };
    const { code, timeoutSeconds, background } = parsed.data;
    const input = (parsed.data.input ?? null) as JsonValue;
    const { sessionId } = request;
    const jobId = this.access.newId();
    const timeoutMs = (timeoutSeconds ?? JOB_LIMITS.defaultTimeoutSeconds) * 1000;
    const refused = await this.access.lock.run(sessionId, async () => {
      const open = (await this.access.ledger(sessionId)).open();
      if (open.length >= JOB_LIMITS.maxRunningPerSession)
        return `At most ${JOB_LIMITS.maxRunningPerSession} jobs run at once in a conversation, and ${open.length} are running (${open.map((job) => job.jobId).join(', ')}). Wait for one to end (jobStatus) or stop one (cancelJob), then try again.`;
      this.pendingStarts.add(jobId);
      await this.access.commitDrafts(sessionId, [
        {
          type: 'job/created',
          sessionId,
          jobId,
          turnId: request.turnId,
          toolCallId: request.toolCallId,
          time: this.access.now(),
          data: {
            code: code.slice(0, JOB_LIMITS.codeChars),
            background: background ?? false,
            timeoutMs,
            outputLimitBytes: JOB_LIMITS.headBytes + JOB_LIMITS.tailBytes,
          },
        },
      ]);
      return undefined;
    });
    if (refused) return { ok: false, error: refused };
    const ended = this.finalOf(jobId);
    try {
      await this.access.host?.start({ sessionId, jobId, code, input, timeoutMs });
    } catch (error) {
      await this.recordFailure(sessionId, jobId, errorText(error));
    } finally {
      this.pendingStarts.delete(jobId);
    }
    if (background)
      return {
        ok: true,
        jobId,
        state: 'running',
        note: 'Running in the background; its end is announced in the conversation. Read it with jobStatus.',
      };
    await ended;
    return this.status(sessionId, jobId);
  }

  /** A cancel aimed at one job: stops it when it runs; when it has ended (or is already stopping), only reports its state. */
  async cancel(
    sessionId: string,
    jobId: string,
    commandId: string,
    cause: 'user' | 'turn-cancelled' = 'user',
  ): Promise<JobCommandResult> {
    const early = await this.access.lock.run(sessionId, async (): Promise<JobCommandResult | undefined> => {
      const job = (await this.access.ledger(sessionId)).get(jobId);
      if (!job) return { commandId, jobId, state: 'rejected', jobState: 'unknown' };
      const time = this.access.now();
      if (job.final || job.state === 'stopping') {
        await this.access.commitDrafts(sessionId, [
          {
            type: 'job-command/state',
            sessionId,
            commandId,
            jobId,
            time,
            data: { state: 'stale', jobState: job.state },
          },
        ]);
        return { commandId, jobId, state: 'stale', jobState: job.state };
      }
      this.killCauses.set(jobId, cause);
      await this.access.commitDrafts(sessionId, [
        { type: 'job/stopping', sessionId, jobId, commandId, time, data: {} },
        {
          type: 'job-command/state',
          sessionId,
          commandId,
          jobId,
          time,
          data: { state: 'accepted', jobState: 'stopping' },
        },
      ]);
      return undefined;
    });
    if (early) return early;
    const ended = this.finalOf(jobId);
    const reached = await this.access.host?.kill(jobId).catch(() => false);
    if (!reached) await this.recordOrphaned(sessionId, [jobId]);
    // A host that took the kill but never answers is gone: its job is orphaned rather than waited for forever.
    if (!(await settlesWithin(ended, KILL_ANSWER_MS))) await this.recordOrphaned(sessionId, [jobId]);
    const job = (await this.access.ledger(sessionId)).get(jobId);
    return {
      commandId,
      jobId,
      state: job?.state === 'killed' ? 'applied' : 'stale',
      jobState: job?.state ?? 'unknown',
    };
  }

  private readonly killCauses = new Map<string, 'user' | 'turn-cancelled'>();

  /** Cancelling a turn cancels its jobs. */
  async cancelTurnJobs(sessionId: string, turnId: string): Promise<void> {
    const jobs = (await this.access.ledger(sessionId)).open().filter((job) => job.turnId === turnId);
    await Promise.all(jobs.map((job) => this.cancel(sessionId, job.jobId, this.access.newId(), 'turn-cancelled')));
  }

  /** A session loaded after a restart: its open jobs that no host knows are orphaned. */
  async reconcile(sessionId: string): Promise<void> {
    const ledger = await this.access.ledger(sessionId);
    if (ledger.open().length === 0) return;
    const known = (await this.access.host?.knownJobs()) ?? new Set<string>();
    await this.orphanUnknown(sessionId, known);
  }

  private async orphanUnknown(sessionId: string, known: Set<string>, starting = new Set<string>()): Promise<void> {
    const ledger = await this.access.ledger(sessionId);
    const lost = ledger
      .open()
      .filter((job) => !known.has(job.jobId) && !starting.has(job.jobId) && !this.pendingStarts.has(job.jobId));
    if (lost.length > 0)
      await this.recordOrphaned(
        sessionId,
        lost.map((job) => job.jobId),
      );
  }

  private async receive(report: JobHostReport): Promise<void> {
    switch (report.type) {
      case 'job-host/hello': {
        // Taken before the first await: a start waiting for this hello is sent right after it, so the hello cannot
        // list it, and by the time the log is read that start may have returned and left `pendingStarts`.
        const starting = new Set(this.pendingStarts);
        for (const outcome of report.finished) await this.recordOutcome(outcome);
        const known = new Set([...report.running.map((job) => job.jobId), ...report.finished.map((job) => job.jobId)]);
        for (const sessionId of this.access.loadedSessions()) await this.orphanUnknown(sessionId, known, starting);
        return;
      }
      case 'job-host/started':
        await this.whileOpen(report.sessionId, report.jobId, (job, time) =>
          job.state === 'created'
            ? [{ type: 'job/running', sessionId: report.sessionId, jobId: job.jobId, time, data: {} }]
            : [],
        );
        return;
      case 'job-host/output':
        await this.whileOpen(report.sessionId, report.jobId, (job, time) => {
          const index = this.outputCounts.get(job.jobId) ?? 0;
          this.outputCounts.set(job.jobId, index + 1);
          return [
            {
              type: 'job/output',
              sessionId: report.sessionId,
              jobId: job.jobId,
              time,
              data: { index, offset: report.offset, text: report.text, totalBytes: report.totalBytes },
            },
          ];
        });
        return;
      case 'job-host/finished':
        await this.recordOutcome(report.outcome);
        return;
    }
  }

  private async recordOutcome(outcome: JobOutcome): Promise<void> {
    const { sessionId, jobId } = outcome;
    await this.whileOpen(sessionId, jobId, (job, time) => {
      const final = finalDraft(outcome, job, time, this.killCauses.get(jobId) ?? 'user');
      const command: AgentEventDraft[] =
        job.stoppingCommandId && outcome.state === 'killed'
          ? [
              {
                type: 'job-command/state',
                sessionId,
                commandId: job.stoppingCommandId,
                jobId,
                time,
                data: { state: 'applied', jobState: 'killed' },
              },
            ]
          : [];
      return [final, ...command];
    });
    this.access.host?.acknowledge(jobId);
  }

  private recordFailure(sessionId: string, jobId: string, message: string): Promise<void> {
    return this.whileOpen(sessionId, jobId, (_job, time) => [
      {
        type: 'job/failed',
        sessionId,
        jobId,
        time,
        data: {
          reason: 'host',
          message: `The job could not be started: ${message}`.slice(0, 4000),
          output: EMPTY_OUTPUT,
          durationMs: 0,
        },
      },
    ]);
  }

  private async recordOrphaned(sessionId: string, jobIds: string[]): Promise<void> {
    for (const jobId of jobIds)
      await this.whileOpen(sessionId, jobId, (job, time) => [
        {
          type: 'job/orphaned',
          sessionId,
          jobId,
          time,
          data: { reason: `The job was ${job.state} when ${HOST_GONE}` },
        },
        ...(job.stoppingCommandId
          ? [
              {
                type: 'job-command/state',
                sessionId,
                commandId: job.stoppingCommandId,
                jobId,
                time,
                data: { state: 'stale', jobState: 'orphaned' },
              } as AgentEventDraft,
            ]
          : []),
      ]);
  }

  /** Writes a job's events only while it has no final state; a final state wakes whoever waits for it. */
  private async whileOpen(
    sessionId: string,
    jobId: string,
    drafts: (job: JobRecord, time: number) => AgentEventDraft[],
  ): Promise<void> {
    const ended = await this.access.lock.run(sessionId, async () => {
      const ledger = await this.access.ledger(sessionId);
      const job = ledger.get(jobId);
      if (!job || job.final) return false;
      const time = this.access.now();
      const events = drafts(job, time);
      if (events.length === 0) return false;
      await this.access.commitDrafts(sessionId, events);
      const after = ledger.get(jobId);
      if (!after?.final) return false;
      if (after.background) await this.access.commitDrafts(sessionId, [jobCompletionNotice(sessionId, after, time)]);
      return true;
    });
    if (ended) this.wake(jobId);
  }

  private finalOf(jobId: string): Promise<void> {
    return new Promise((resolve) => this.waiters.set(jobId, [...(this.waiters.get(jobId) ?? []), resolve]));
  }

  private wake(jobId: string): void {
    this.outputCounts.delete(jobId);
    this.killCauses.delete(jobId);
    for (const resolve of this.waiters.get(jobId) ?? []) resolve();
    this.waiters.delete(jobId);
  }
}

function finalDraft(
  outcome: JobOutcome,
  job: JobRecord,
  time: number,
  cause: 'user' | 'turn-cancelled',
): AgentEventDraft {
  const { sessionId, jobId, output, durationMs } = outcome;
  switch (outcome.state) {
    case 'completed':
      return {
        type: 'job/completed',
        sessionId,
        jobId,
        time,
        data: { result: outcome.result, resultBytes: outcome.resultBytes, output, durationMs },
      };
    case 'failed':
      return {
        type: 'job/failed',
        sessionId,
        jobId,
        time,
        data: {
          reason: outcome.reason,
          message: outcome.message,
          ...(outcome.stack ? { stack: outcome.stack } : {}),
          output,
          durationMs,
        },
      };
    case 'killed':
      return {
        type: 'job/killed',
        sessionId,
        jobId,
        ...(job.stoppingCommandId ? { commandId: job.stoppingCommandId } : {}),
        time,
        data: { cause, output, durationMs },
      };
  }
}
