import type { JobHostReport, JobOutcome } from '../protocol/job-host-wire';

/**
 * What the job host page remembers across a restart of the runtime: which jobs run, and every outcome the
 * runtime has not acknowledged yet, so a job that ended while the service worker was stopped is not lost.
 */
export class JobHostBook {
  private readonly running = new Map<string, string>();
  private readonly finished = new Map<string, JobOutcome>();

  observe(report: JobHostReport): void {
    if (report.type === 'job-host/started') this.running.set(report.jobId, report.sessionId);
    if (report.type === 'job-host/finished') {
      this.running.delete(report.outcome.jobId);
      this.finished.set(report.outcome.jobId, report.outcome);
    }
  }

  /** A start the runner accepted counts as running before the worker says hello. */
  starting(sessionId: string, jobId: string): void {
    if (!this.finished.has(jobId)) this.running.set(jobId, sessionId);
  }

  acknowledge(jobId: string): void {
    this.finished.delete(jobId);
  }

  hello(): JobHostReport {
    return {
      type: 'job-host/hello',
      running: [...this.running].map(([jobId, sessionId]) => ({ sessionId, jobId })),
      finished: [...this.finished.values()],
    };
  }
}
