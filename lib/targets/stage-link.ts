import type { JsonObject } from '../protocol/json-value';
import { stageReportMessageSchema, type StageCommandMessage } from '../protocol/runtime-message';
import type { CatalogEntry } from '../protocol/target-catalog';
import type { TargetArtifactLoad } from '../protocol/target-artifact-wire';
import type { StageCommand } from '../protocol/target-wire';
import type { StageDriver } from './stage-driver';
import type { RecordedCallResult, StageRecord } from './tool-recovery';
import { issueText } from '../protocol/issue-text';
import type { McpAppLoad } from '../protocol/mcp-app-wire';
import type { McpAppRequest, McpAppToolAnswer } from '../protocol/mcp-app-runtime-wire';

export interface McpAppToolCall {
  name: string;
  arguments: JsonObject;
}

export interface LinkPort {
  postMessage(message: StageCommandMessage): void;
  onMessage(listener: (message: unknown) => void): void;
  onDisconnect(listener: () => void): void;
}

export interface StageLinkOptions {
  openStageTab(): Promise<void>;
  /** Whether a stage tab exists now (it may be reconnecting after the runtime restarted). */
  stageIsOpen(): Promise<boolean>;
  /** The address the stage loads for a target. */
  entryUrl(entry: CatalogEntry): string;
  /** The files and grants of an authored target, which the stage hands to its host page. */
  artifactContent?(entry: CatalogEntry): Promise<TargetArtifactLoad>;
  /** Something an authored target tried was blocked by its content security policy. */
  onCspViolation?(entry: CatalogEntry, violation: { directive: string; blockedUrl: string }): void;
  /** Every state a target reports, in answer to a command or on its own. */
  onState?(targetId: string, state: JsonObject): void;
  /** An MCP App in the stage calls a tool of its server; the answer goes back by `answerAppToolCall`. */
  onAppToolCall?(targetId: string, requestId: string, call: McpAppToolCall): void;
  /** An MCP App in the stage asks for a message, a link or a resource; answered by `answerAppToolCall` too. */
  onAppRequest?(targetId: string, requestId: string, request: McpAppRequest): void;
  newId(): string;
  /** How long to wait for the stage tab to connect, and for a job's answer. */
  connectTimeoutMs: number;
  jobTimeoutMs: number;
  /** How long to wait for the hello of a stage that is reconnecting. */
  reconnectGraceMs: number;
  /** A stage that stays disconnected this long is gone, and its unanswered jobs fail. */
  stageGoneAfterMs: number;
}

/** Errors kept for the next tool result; a target failing every frame must not grow the list without bound. */
const MAX_TARGET_ERRORS = 20;

interface Job {
  port: LinkPort;
  resolve(state: JsonObject): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/** The runtime's end of the stage tab: one port, jobs paired by id, a tab opened when none is there. */
export class StageLink implements StageDriver {
  private port: LinkPort | undefined;
  private greeted = false;
  private active: string | undefined;
  private activeEntry: CatalogEntry | undefined;
  /** Whether the active target is an MCP App (opened by `openMcpApp`, not from the catalog). */
  private activeApp = false;
  /** The version shown when the active target is an older version the user opened to look at. */
  private previewVersion: number | undefined;
  private readonly jobs = new Map<string, Job>();
  private readonly connectWaiters = new Set<() => void>();
  private recent: RecordedCallResult[] = [];
  private received = new Set<string>();
  private stageStartedAt = Number.POSITIVE_INFINITY;
  private targetErrors: string[] = [];

  constructor(private readonly options: StageLinkOptions) {}

  attach(port: LinkPort): void {
    if (this.port && this.port !== port) retire(this.port);
    this.port = port;
    this.greeted = false;
    port.onMessage((message) => this.receive(port, message));
    port.onDisconnect(() => {
      if (this.port === port) {
        this.port = undefined;
        this.active = undefined;
        this.previewVersion = undefined;
      }
      // A stage that is still open reconnects at once and answers its jobs on the new port; only a
      // stage that stays away has really gone (tab closed), and then its jobs fail.
      setTimeout(() => {
        if (this.port && this.greeted) return;
        for (const [jobId, job] of this.jobs) {
          if (job.port !== port) continue;
          clearTimeout(job.timer);
          job.reject(
            new Error('The stage tab was closed before the target answered. The change may not have been applied.'),
          );
          this.jobs.delete(jobId);
        }
      }, this.options.stageGoneAfterMs);
    });
  }

  private receive(port: LinkPort, raw: unknown): void {
    const parsed = stageReportMessageSchema.safeParse(raw);
    if (!parsed.success) {
      console.warn(`Ignored an invalid message from the stage: ${issueText(parsed.error.issues[0])}`);
      return;
    }
    if (this.port !== port) return;
    const message = parsed.data;
    if (message.type === 'stage/hello') {
      if (message.activeTargetId !== this.active) this.activeApp = message.activeApp ?? false;
      this.active = message.activeTargetId;
      // The hello does not say which version: a preview is only known as one.
      this.previewVersion = message.previewing ? (this.previewVersion ?? 0) : undefined;
      this.recent = message.recent;
      this.received = new Set(message.received);
      this.stageStartedAt = message.startedAt;
      this.greeted = true;
      for (const wake of this.connectWaiters) wake();
      this.connectWaiters.clear();
      return;
    }
    if (message.type === 'stage/target-state') {
      // A preview's values are not the target's: they must not replace the ones saved for its current version.
      if (message.targetId === this.active && this.previewVersion === undefined)
        this.options.onState?.(message.targetId, message.state);
      return;
    }
    if (message.type === 'stage/target-error') {
      if (message.targetId === this.active) this.noteTargetError(message.message);
      return;
    }
    if (message.type === 'stage/app-tool-call') {
      if (message.targetId === this.active && this.activeApp)
        this.options.onAppToolCall?.(message.targetId, message.requestId, message.call);
      else this.answerAppToolCall(message.targetId, message.requestId, { error: 'This app is no longer open.' });
      return;
    }
    if (message.type === 'stage/app-request') {
      if (message.targetId === this.active && this.activeApp)
        this.options.onAppRequest?.(message.targetId, message.requestId, message.request);
      else this.answerAppToolCall(message.targetId, message.requestId, { error: 'This app is no longer open.' });
      return;
    }
    if (message.type === 'stage/target-csp-violation') {
      if (message.targetId === this.active && this.activeApp) {
        this.noteTargetError(
          `Blocked by the MCP App's content security policy (${message.directive}): ${message.blockedUrl}`,
        );
        return;
      }
      if (message.targetId !== this.active || this.activeEntry?.manifest.id !== message.targetId) return;
      this.noteTargetError(
        `Blocked by the sandbox's content security policy (${message.directive}): ${message.blockedUrl}`,
      );
      this.options.onCspViolation?.(this.activeEntry, message);
      return;
    }
    const job = this.jobs.get(message.jobId);
    if (!job) return;
    clearTimeout(job.timer);
    this.jobs.delete(message.jobId);
    if (message.type === 'stage/state') job.resolve(message.state);
    else job.reject(new Error(message.error));
  }

  private noteTargetError(message: string): void {
    this.targetErrors.push(message);
    if (this.targetErrors.length > MAX_TARGET_ERRORS) this.targetErrors.splice(0, 1);
  }

  /** The errors the active target reported on its own since the last call, once each. */
  takeTargetErrors(targetId: string): string[] {
    if (targetId !== this.active) return [];
    return this.targetErrors.splice(0);
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

  /** Waits for the hello of a stage tab that exists but has not (re)connected yet. */
  private async greetedIfOpen(): Promise<boolean> {
    if (this.port && this.greeted) return true;
    if (!(await this.options.stageIsOpen())) return false;
    return this.waitForHello(this.options.reconnectGraceMs);
  }

  private async connectedPort(): Promise<LinkPort> {
    if (await this.greetedIfOpen()) return this.port!;
    await this.options.openStageTab();
    if (await this.waitForHello(this.options.connectTimeoutMs)) return this.port!;
    throw new Error(`The stage tab did not open within ${this.options.connectTimeoutMs} ms.`);
  }

  /** What the stage said on its last hello, once a stage tab that is open has (re)connected. */
  async record(): Promise<StageRecord> {
    const greeted = await this.greetedIfOpen();
    return { greeted, startedAt: this.stageStartedAt, received: this.received, recent: this.recent };
  }

  /** The same stage, with every command tagged with the tool call it serves. */
  forToolCall(callKey: string): StageDriver {
    return {
      open: (entry) => this.open(entry, callKey),
      send: (targetId, command) => this.send(targetId, command, callKey),
      activeTargetId: () => this.activeTargetId(),
      takeTargetErrors: (targetId) => this.takeTargetErrors(targetId),
    };
  }

  private async run(build: (jobId: string) => StageCommandMessage): Promise<JsonObject> {
    const port = await this.connectedPort();
    const jobId = this.options.newId();
    return new Promise<JsonObject>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.jobs.delete(jobId);
        reject(new Error(`The stage did not answer within ${this.options.jobTimeoutMs} ms.`));
      }, this.options.jobTimeoutMs);
      this.jobs.set(jobId, { port, resolve, reject, timer });
      port.postMessage(build(jobId));
    });
  }

  async open(entry: CatalogEntry, callKey?: string): Promise<JsonObject> {
    this.targetErrors = [];
    const artifact = 'artifact' in entry ? await this.options.artifactContent?.(entry) : undefined;
    const state = await this.run((jobId) => ({
      type: 'stage/open',
      jobId,
      ...(callKey ? { callKey } : {}),
      targetId: entry.manifest.id,
      title: entry.manifest.title,
      url: this.options.entryUrl(entry),
      ...(artifact ? { artifact } : {}),
    }));
    this.active = entry.manifest.id;
    this.activeEntry = entry;
    this.activeApp = false;
    this.previewVersion = undefined;
    this.options.onState?.(entry.manifest.id, state);
    return state;
  }

  /** Opens an MCP App's document in the stage, from the host page at `url`; it gets the call's input and result. */
  async openMcpApp(open: { targetId: string; title: string; url: string; app: McpAppLoad; callKey?: string }) {
    this.targetErrors = [];
    await this.run((jobId) => ({
      type: 'stage/open',
      jobId,
      ...(open.callKey ? { callKey: open.callKey } : {}),
      targetId: open.targetId,
      title: open.title,
      url: open.url,
      mcpApp: open.app,
    }));
    this.active = open.targetId;
    this.activeEntry = undefined;
    this.activeApp = true;
    this.previewVersion = undefined;
  }

  /** The runtime's answer to an app's `tools/call`; an app closed meanwhile is not told. */
  answerAppToolCall(targetId: string, requestId: string, answer: McpAppToolAnswer): void {
    try {
      this.port?.postMessage({ type: 'stage/app-tool-result', targetId, requestId, answer });
    } catch {
      // The stage went away; the app went with it.
    }
  }

  /** Shows an older version of an authored target; until a target is opened again, commands to it are refused. */
  async preview(entry: CatalogEntry, artifact: TargetArtifactLoad): Promise<void> {
    this.targetErrors = [];
    await this.run((jobId) => ({
      type: 'stage/open',
      jobId,
      targetId: entry.manifest.id,
      title: artifact.manifest.title,
      url: this.options.entryUrl(entry),
      artifact,
      preview: true,
    }));
    this.active = entry.manifest.id;
    this.activeEntry = entry;
    this.activeApp = false;
    this.previewVersion = artifact.version;
  }

  async send(targetId: string, command: StageCommand, callKey?: string): Promise<JsonObject> {
    if (targetId === this.active && this.previewVersion !== undefined) throw new Error(this.previewRefusal(targetId));
    const state = await this.run((jobId) => ({
      type: 'stage/send',
      jobId,
      ...(callKey ? { callKey } : {}),
      targetId,
      message: { ...command, source: 'splitbrain:stage', id: jobId },
    }));
    this.options.onState?.(targetId, state);
    return state;
  }

  private previewRefusal(targetId: string): string {
    const shown = this.previewVersion ? `version ${this.previewVersion}` : 'an older version';
    return `The stage shows ${shown} of "${targetId}" (superseded), which the user opened to look at; the tools do not drive it and nothing was changed. Call openTarget("${targetId}") to load the current version.`;
  }

  /** Whether the stage shows `targetId` as an older version the user opened to look at (as of its last hello). */
  isPreview(targetId: string): boolean {
    return targetId === this.active && this.previewVersion !== undefined;
  }

  async activeTargetId(): Promise<string | undefined> {
    await this.greetedIfOpen();
    return this.active;
  }
}

/** Tells an older stage tab to stop taking commands; it may already be gone, which is fine. */
function retire(port: LinkPort): void {
  try {
    port.postMessage({ type: 'stage/retire' });
  } catch {
    // The port was already disconnected.
  }
}
