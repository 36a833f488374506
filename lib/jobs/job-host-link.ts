import {
  jobHostReportSchema,
  type JobHostCommand,
  type JobHostReport,
  type JobStartSpec,
} from '../protocol/job-host-wire';
import type { JobHostDriver } from './job-control';

export interface JobHostPort {
  postMessage(message: JobHostCommand): void;
  onMessage(listener: (message: unknown) => void): void;
  onDisconnect(listener: () => void): void;
}

export interface JobHostLinkOptions {
  /** Creates the host document when there is none (Chrome: the offscreen document; Firefox: a frame of the background page). */
  openHost(): Promise<void>;
  hostExists(): Promise<boolean>;
  connectTimeoutMs: number;
  /** A host that stays disconnected this long is gone, with every job it ran. */
  hostGoneAfterMs: number;
}

/** The runtime's end of the `jobs` port: one host, reconnected after a restart, whose hello says what still runs. */
export class JobHostLink implements JobHostDriver {
  private port: JobHostPort | undefined;
  private greeted = false;
  private readonly known = new Set<string>();
  private readonly listeners: ((report: JobHostReport) => void)[] = [];
  private readonly waiters = new Set<() => void>();

  constructor(private readonly options: JobHostLinkOptions) {}

  attach(port: JobHostPort): void {
    this.port = port;
    this.greeted = false;
    port.onMessage((message) => {
      const parsed = jobHostReportSchema.safeParse(message);
      if (parsed.success && this.port === port) this.receive(parsed.data);
    });
    port.onDisconnect(() => {
      if (this.port !== port) return;
      this.port = undefined;
      this.greeted = false;
      setTimeout(() => {
        if (this.port) return;
        // Gone for good: nothing it ran can be found any more.
        this.known.clear();
        this.emit({ type: 'job-host/hello', running: [], finished: [] });
      }, this.options.hostGoneAfterMs);
    });
  }

  onReport(listener: (report: JobHostReport) => void): void {
    this.listeners.push(listener);
  }

  async start(spec: JobStartSpec): Promise<void> {
    if (!this.port || !this.greeted) await this.options.openHost();
    const port = await this.connected();
    if (!port) throw new Error('The job host did not start.');
    this.known.add(spec.jobId);
    port.postMessage({ type: 'job-host/start', spec });
  }

  async kill(jobId: string): Promise<boolean> {
    const port =
      this.port && this.greeted ? this.port : (await this.options.hostExists()) ? await this.connected() : undefined;
    if (!port) return false;
    port.postMessage({ type: 'job-host/kill', jobId });
    return true;
  }

  acknowledge(jobId: string): void {
    this.known.delete(jobId);
    this.port?.postMessage({ type: 'job-host/acknowledge', jobId });
  }

  async knownJobs(): Promise<Set<string>> {
    if (!(this.port && this.greeted) && (await this.options.hostExists())) await this.connected();
    return this.port && this.greeted ? new Set(this.known) : new Set();
  }

  private receive(report: JobHostReport): void {
    if (report.type === 'job-host/hello') {
      this.greeted = true;
      this.known.clear();
      for (const job of report.running) this.known.add(job.jobId);
      for (const outcome of report.finished) this.known.add(outcome.jobId);
      for (const wake of this.waiters) wake();
      this.waiters.clear();
    }
    if (report.type === 'job-host/started') this.known.add(report.jobId);
    this.emit(report);
  }

  private emit(report: JobHostReport): void {
    for (const listener of this.listeners) listener(report);
  }

  private connected(): Promise<JobHostPort | undefined> {
    if (this.port && this.greeted) return Promise.resolve(this.port);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        resolve(undefined);
      }, this.options.connectTimeoutMs);
      const wake = () => {
        clearTimeout(timer);
        resolve(this.port);
      };
      this.waiters.add(wake);
    });
  }
}
