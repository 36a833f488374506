import type { JobHostCommand, JobOutcome } from '../protocol/job-host-wire';
import { EMPTY_OUTPUT } from './output-window';

export interface SandboxStartQueueOptions {
  /** Hands a command to the sandbox frame, which is ready. */
  send(command: JobHostCommand): void;
  /** A job that never reached the sandbox: its failed outcome, reported as the runner reports any. */
  report(outcome: JobOutcome): void;
  setTimer(run: () => void, delayMs: number): void;
  /** How long a start waits for the sandbox frame before its job fails. */
  readyTimeoutMs: number;
}

/**
 * The job host's commands until its sandbox frame says it is ready, then in order. A start that waits longer than
 * `readyTimeoutMs` fails with reason `host` instead of waiting forever (and its kill, if any, is dropped with it):
 * a frame that never loads must not leave the model's runScript, and the turn, hanging.
 */
export class SandboxStartQueue {
  private ready = false;
  private queued: JobHostCommand[] = [];

  constructor(private readonly options: SandboxStartQueueOptions) {}

  command(command: JobHostCommand): void {
    if (this.ready) return this.options.send(command);
    this.queued.push(command);
    if (command.type === 'job-host/start')
      this.options.setTimer(() => this.giveUp(command.spec.sessionId, command.spec.jobId), this.options.readyTimeoutMs);
  }

  frameReady(): void {
    if (this.ready) return;
    this.ready = true;
    for (const command of this.queued.splice(0)) this.options.send(command);
  }

  private giveUp(sessionId: string, jobId: string): void {
    const waiting = this.queued.some((command) => command.type === 'job-host/start' && command.spec.jobId === jobId);
    if (this.ready || !waiting) return;
    this.queued = this.queued.filter((command) => jobIdOf(command) !== jobId);
    this.options.report({
      state: 'failed',
      sessionId,
      jobId,
      reason: 'host',
      message: `The script sandbox did not start within ${this.options.readyTimeoutMs / 1000} s, so the script was not run.`,
      output: EMPTY_OUTPUT,
      durationMs: 0,
    });
  }
}

function jobIdOf(command: JobHostCommand): string {
  return command.type === 'job-host/start' ? command.spec.jobId : command.jobId;
}
