import type { JsonObject } from '../protocol/json-value';
import { stageReportMessageSchema, type StageCommandMessage } from '../protocol/runtime-message';
import type { CatalogEntry } from '../manifest/target-catalog';
import type { StageCommand, StageDriver } from '../tools/stage-driver';

export interface LinkPort {
  postMessage(message: StageCommandMessage): void;
  onMessage(listener: (message: unknown) => void): void;
  onDisconnect(listener: () => void): void;
}

export interface StageLinkOptions {
  openStageTab(): Promise<void>;
  /** The address the stage loads for a target. */
  entryUrl(entry: CatalogEntry): string;
  /** Every state a target reports, in answer to a command or on its own. */
  onState?(targetId: string, state: JsonObject): void;
  newId(): string;
  /** How long to wait for the stage tab to connect, and for a job's answer. */
  connectTimeoutMs: number;
  jobTimeoutMs: number;
  /** A stage that just lost its connection gets this long to come back before a new tab is opened. */
  reconnectGraceMs: number;
}

interface Job {
  resolve(state: JsonObject): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/** The runtime's end of the stage tab: one port, jobs paired by id, a tab opened when none is there. */
export class StageLink implements StageDriver {
  private port: LinkPort | undefined;
  private greeted = false;
  private active: string | undefined;
  private readonly jobs = new Map<string, Job>();
  private readonly connectWaiters = new Set<() => void>();

  constructor(private readonly options: StageLinkOptions) {}

  attach(port: LinkPort): void {
    this.port = port;
    this.greeted = false;
    port.onMessage((message) => this.receive(port, message));
    port.onDisconnect(() => {
      if (this.port !== port) return;
      this.port = undefined;
      this.active = undefined;
      for (const [jobId, job] of this.jobs) {
        clearTimeout(job.timer);
        job.reject(new Error('The stage tab was closed before the target answered. The change may not have been applied.'));
        this.jobs.delete(jobId);
      }
    });
  }

  private receive(port: LinkPort, raw: unknown): void {
    const parsed = stageReportMessageSchema.safeParse(raw);
    if (!parsed.success || this.port !== port) return;
    const message = parsed.data;
    if (message.type === 'stage/hello') {
      this.active = message.activeTargetId;
      this.greeted = true;
      for (const wake of this.connectWaiters) wake();
      this.connectWaiters.clear();
      return;
    }
    if (message.type === 'stage/target-state') {
      if (message.targetId === this.active) this.options.onState?.(message.targetId, message.state);
      return;
    }
    const job = this.jobs.get(message.jobId);
    if (!job) return;
    clearTimeout(job.timer);
    this.jobs.delete(message.jobId);
    if (message.type === 'stage/state') job.resolve(message.state);
    else job.reject(new Error(message.error));
  }

  private waitForHello(timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.connectWaiters.delete(wake);
        resolve(false);
      }, timeoutMs);
      this.connectWaiters.add(wake);
    });
  }

  private async connectedPort(): Promise<LinkPort> {
    if (this.port && this.greeted) return this.port;
    if (await this.waitForHello(this.options.reconnectGraceMs)) return this.port!;
    await this.options.openStageTab();
    if (await this.waitForHello(this.options.connectTimeoutMs)) return this.port!;
    throw new Error(`The stage tab did not open within ${this.options.connectTimeoutMs} ms.`);
  }

  private async run(build: (jobId: string) => StageCommandMessage): Promise<JsonObject> {
    const port = await this.connectedPort();
    const jobId = this.options.newId();
    return new Promise<JsonObject>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.jobs.delete(jobId);
        reject(new Error(`The stage did not answer within ${this.options.jobTimeoutMs} ms.`));
      }, this.options.jobTimeoutMs);
      this.jobs.set(jobId, { resolve, reject, timer });
      port.postMessage(build(jobId));
    });
  }

  async open(entry: CatalogEntry): Promise<JsonObject> {
    const state = await this.run((jobId) => ({ type: 'stage/open', jobId, targetId: entry.manifest.id, title: entry.manifest.title, url: this.options.entryUrl(entry) }));
    this.active = entry.manifest.id;
    return state;
  }

  async send(targetId: string, command: StageCommand): Promise<JsonObject> {
    const state = await this.run((jobId) => ({ type: 'stage/send', jobId, targetId, message: { ...command, source: 'splitbrain:stage', id: jobId } }));
    this.options.onState?.(targetId, state);
    return state;
  }

  async activeTargetId(): Promise<string | undefined> {
    if (!this.port || !this.greeted) await this.waitForHello(this.options.reconnectGraceMs);
    return this.active;
  }
}
