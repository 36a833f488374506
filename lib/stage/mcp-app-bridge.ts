import type { JsonObject } from '../protocol/json-value';
import {
  JSON_RPC_ERRORS,
  MCP_APP_DECLINED,
  MCP_APP_PROTOCOL_VERSION,
  jsonRpcEnvelopeSchema,
  mcpAppMethodMessageSchema,
  mcpAppToHostMessageSchema,
  type McpAppDisplayMode,
  type McpAppFromHostMessage,
  type McpAppLoad,
  type McpAppMethodMessage,
  type McpAppResponse,
} from '../protocol/mcp-app-wire';
import { type McpAppRequest, type McpAppToolAnswer } from '../protocol/mcp-app-runtime-wire';
import type { McpAppDownloadContent } from '../protocol/mcp-app-download';
import { appDownloadFiles, describedFiles, type AppDownloadFile } from './app-download-files';
import { declaredDisplayModes, resultingDisplayMode } from './mcp-app-display-mode';
import { checkedAppMessage, checkedModelContext, type CheckedAppRequest } from './mcp-app-checked-requests';

/** One line of an app's log (`notifications/message`), its data as text. */
export interface McpAppLogEntry {
  level: string;
  logger?: string;
  text: string;
}

export interface McpAppBridgeOptions {
  app: McpAppLoad;
  /** Posts to the app's window. */
  post(message: McpAppFromHostMessage): void;
  /** The app's own `tools/call`, run by the runtime with the normal approvals. */
  callTool(name: string, input: JsonObject): Promise<McpAppToolAnswer>;
  /**
   * The app's `ui/message`, `ui/open-link`, `ui/download-file` (the user's word on it), `resources/read`,
   * `resources/list` and `ui/update-model-context`, served by the runtime; without it, refused.
   */
  request?(request: McpAppRequest): Promise<McpAppToolAnswer>;
  /** Saves the files of a download the user allowed; whether they were saved. Without it, downloads are refused. */
  saveFiles?(files: AppDownloadFile[]): Promise<boolean>;
  /** The size the app says its content has. */
  onSize(size: { width?: number; height?: number }): void;
  /**
   * Shows the app in `mode` (the host has it and the app declared it), then tells the bridge what changed in its
   * context (`updateHostContext`); without it, the app stays where it is.
   */
  showIn?(mode: McpAppDisplayMode): void;
  /** A line of the app's log. */
  onLog?(entry: McpAppLogEntry): void;
  /** Something the app sent that the host refused, for the log. */
  onRefused(reason: string): void;
  /** The handshake is complete and the app has the tool input and result. */
  onInitialized(appInfo: string): void;
  hostContext: JsonObject;
  /** The origins the app's fetch is admitted to (declared and granted): the `sandbox.csp` of its capabilities. */
  admittedConnect?: readonly string[];
}

/** Refusals reported per app: a frame that posts garbage in a loop must not flood the runtime. */
const MAX_REFUSALS = 20;
/** Calls of one app waiting for the user or the server at once. */
const MAX_PENDING_CALLS = 4;
/** Requests the app gave up on, remembered so that their late answer is not sent. */
const MAX_CANCELLED = 100;
/**
 * The official SDK gives up on a request after 60 s unless it hears progress; a tool call, a message, a link or a
 * download waits for the user's approval for longer than that, so while it waits the host reports progress on the
 * request's token (if the app asked for progress) this often.
 */
export const MCP_APP_PROGRESS_EVERY_MS = 20_000;
/** The most characters of one log line the host keeps. */
const LOG_TEXT_LIMIT = 1_000;

/** How a `ui/resource-teardown` ended: answered, answered with an error, not answered in time, or not sent. */
export type McpAppTeardown = 'answered' | 'failed' | 'timed-out' | 'not-initialized';

/**
 * The host side of the MCP Apps protocol for one app in the stage: answers `ui/initialize`, sends the opening
 * call's input and result once the app is initialized, proxies the app's `tools/call` and requests to the runtime,
 * shows it in the display mode it asks for when it declared it, keeps its log, tells it when its context changes and
 * asks it to tear down before it goes; everything else is refused with a JSON-RPC error. Pass it only messages whose
 * `event.source` is this app's frame.
 */
export class McpAppBridge {
  private initialized = false;
  private refusals = 0;
  private pending = 0;
  private context: JsonObject;
  private declaredModes: McpAppDisplayMode[] = [];
  private readonly cancelled = new Set<string | number>();
  private readonly awaiting = new Map<string, (response: McpAppResponse) => void>();
  private hostRequests = 0;
  private closed = false;
  /** What the app has been sent and asked, for the stage's own status and the tests reading it. */
  readonly record = { deliveredResult: false, calls: 0, refused: 0, logs: 0, contextChanges: 0 };

  constructor(private readonly options: McpAppBridgeOptions) {
    this.context = { ...options.hostContext };
  }

  /** The host context as the app knows it now. */
  get hostContext(): JsonObject {
    return this.context;
  }

  receive(data: unknown): void {
    if (this.closed) return;
    const parsed = mcpAppToHostMessageSchema.safeParse(data);
    if (parsed.success) {
      if ('method' in parsed.data) void this.handle(parsed.data);
      else this.answered(parsed.data);
      return;
    }
    const envelope = jsonRpcEnvelopeSchema.safeParse(data);
    if (!envelope.success) {
      this.refuse(null, JSON_RPC_ERRORS.invalidRequest, 'Not a JSON-RPC 2.0 message.');
      return;
    }
    const { id, method } = envelope.data;
    // A response to a request this host never sent, or a notification it does not know: nothing to answer.
    if (id === undefined || method === undefined) {
      this.refuse(undefined, 0, `Ignored the notification ${method ?? '(none)'}.`);
      return;
    }
    const known = mcpAppMethodMessageSchema.options.some((option) => option.shape.method.value === method);
    if (known) this.refuse(id, JSON_RPC_ERRORS.invalidParams, `Invalid params for ${method}.`);
    else this.refuse(id, JSON_RPC_ERRORS.methodNotFound, `Method not found: ${method ?? '(none)'}.`);
  }

  /**
   * Merges `changes` into the host context and, once the app is initialized, tells it the fields that changed
   * (`ui/notifications/host-context-changed`); nothing is sent when none did.
   */
  updateHostContext(changes: JsonObject): void {
    const changed = Object.fromEntries(
      Object.entries(changes).filter(([key, value]) => JSON.stringify(this.context[key]) !== JSON.stringify(value)),
    );
    if (Object.keys(changed).length === 0) return;
    this.context = { ...this.context, ...changed };
    if (!this.initialized || this.closed) return;
    this.record.contextChanges += 1;
    this.options.post({ jsonrpc: '2.0', method: 'ui/notifications/host-context-changed', params: changed });
  }

  /**
   * Asks the app to tear down (`ui/resource-teardown`) and waits for its answer, at most `waitMs`; afterwards the
   * bridge takes nothing more from it. An app that never initialized is not asked: it may be sent nothing.
   */
  teardown(reason: string, waitMs: number): Promise<McpAppTeardown> {
    if (this.closed) return Promise.resolve('not-initialized');
    if (!this.initialized) {
      this.closed = true;
      return Promise.resolve('not-initialized');
    }
    const id = `splitbrain-${++this.hostRequests}`;
    return new Promise((resolve) => {
      const done = (outcome: McpAppTeardown) => {
        clearTimeout(timer);
        this.awaiting.delete(id);
        this.closed = true;
        resolve(outcome);
      };
      const timer = setTimeout(() => done('timed-out'), waitMs);
      this.awaiting.set(id, (response) => done('error' in response ? 'failed' : 'answered'));
      this.options.post({ jsonrpc: '2.0', id, method: 'ui/resource-teardown', params: { reason } });
    });
  }

  private answered(response: McpAppResponse): void {
    const waiting = this.awaiting.get(String(response.id));
    if (waiting) waiting(response);
    else this.refuse(undefined, 0, `Ignored an answer to no request of the host (${String(response.id)}).`);
  }

  private async handle(message: McpAppMethodMessage): Promise<void> {
    switch (message.method) {
      case 'ui/initialize':
        this.declaredModes = declaredDisplayModes(message.params.appCapabilities?.availableDisplayModes);
        this.options.post({
          jsonrpc: '2.0',
          id: message.id,
          result: {
            protocolVersion: MCP_APP_PROTOCOL_VERSION,
            hostInfo: { name: 'splitbrain', version: '0.1.0' },
            hostCapabilities: this.capabilities(),
            hostContext: this.context,
          },
        });
        return;
      case 'ui/notifications/initialized':
        if (this.initialized) return;
        this.initialized = true;
        this.deliver();
        return;
      case 'ui/notifications/size-changed':
        this.options.onSize(message.params);
        return;
      case 'ping':
        this.options.post({ jsonrpc: '2.0', id: message.id, result: {} });
        return;
      case 'tools/call':
        await this.callTool(message.id, message.params.name, message.params.arguments, message.params._meta);
        return;
      case 'ui/message':
        await this.waitingForUser(message.id, message.params._meta, () =>
          this.forwardChecked(message.id, checkedAppMessage(message.params.content)),
        );
        return;
      case 'ui/open-link':
        if (!isWebLink(message.params.url)) {
          this.refuse(message.id, JSON_RPC_ERRORS.invalidParams, 'Only http and https links are opened.');
          return;
        }
        await this.waitingForUser(message.id, message.params._meta, () =>
          this.forward(message.id, { method: 'ui/open-link', url: message.params.url }),
        );
        return;
      case 'resources/read':
        await this.forward(message.id, { method: message.method, uri: message.params.uri });
        return;
      case 'resources/list': {
        const cursor = message.params?.cursor;
        await this.forward(message.id, { method: message.method, ...(cursor !== undefined ? { cursor } : {}) });
        return;
      }
      case 'ui/download-file':
        await this.waitingForUser(message.id, message.params._meta, () =>
          this.downloadFile(message.id, message.params.contents),
        );
        return;
      case 'ui/update-model-context':
        await this.forwardChecked(message.id, checkedModelContext(message.params));
        return;
      case 'ui/request-display-mode':
        this.requestDisplayMode(message.id, message.params.mode);
        return;
      case 'notifications/message':
        this.log(message.params);
        return;
      case 'notifications/cancelled':
        if (this.cancelled.size >= MAX_CANCELLED) this.cancelled.delete(this.cancelled.values().next().value!);
        this.cancelled.add(message.params.requestId);
        return;
    }
  }

  /** Exactly what this host serves, for the app to read before it asks. */
  private capabilities(): JsonObject {
    return {
      serverTools: {},
      ...(this.options.request
        ? {
            serverResources: {},
            openLinks: {},
            message: { text: {}, image: {} },
            updateModelContext: { text: {}, image: {}, structuredContent: {} },
            ...(this.options.saveFiles ? { downloadFile: {} } : {}),
          }
        : {}),
      logging: {},
      sandbox: { permissions: {}, csp: { connectDomains: [...(this.options.admittedConnect ?? [])] } },
    };
  }

  /** Posts an answer unless the app gave up on its request. */
  private answer(id: string | number, answer: { result: JsonObject } | { error: { code: number; message: string } }) {
    if (this.closed) return;
    if (this.cancelled.delete(id)) return;
    this.options.post({ jsonrpc: '2.0', id, ...answer });
  }

  /** A request the runtime serves (the user may be asked first); a refusal is the spec's -32000. */
  private async forward(id: string | number, request: McpAppRequest): Promise<void> {
    await this.serving(id, request.method, async (serve) => {
      const answer = await serve(request);
      if ('result' in answer) this.answer(id, { result: answer.result });
      else this.answer(id, { error: { code: MCP_APP_DECLINED, message: answer.error } });
    });
  }

  /**
   * Runs `work` with the runtime's `request` once the app may ask (it is initialized and has room for one more
   * request waiting), else refuses `method`.
   */
  private async serving(
    id: string | number,
    method: string,
    work: (serve: NonNullable<McpAppBridgeOptions['request']>) => Promise<void>,
  ): Promise<void> {
    const serve = this.options.request;
    if (!serve) {
      this.refuse(id, JSON_RPC_ERRORS.methodNotFound, `Method not found: ${method}.`);
      return;
    }
    if (!this.initialized) {
      this.refuse(id, JSON_RPC_ERRORS.invalidRequest, 'Call ui/initialize and send initialized first.');
      return;
    }
    if (this.pending >= MAX_PENDING_CALLS) {
      this.refuse(id, JSON_RPC_ERRORS.internal, 'Too many requests are waiting; wait for their answers.');
      return;
    }
    this.pending += 1;
    try {
      await work(serve);
    } finally {
      this.pending -= 1;
    }
  }

  /**
   * The files are gathered first (linked ones read from the app's own server) and refused with the reason when they
   * cannot be saved; then the user decides (the runtime asks), and the stage saves them. A denial, an expired ask or
   * a failed save is the spec's `{ isError: true }`.
   */
  private async downloadFile(id: string | number, contents: McpAppDownloadContent[]): Promise<void> {
    const save = this.options.saveFiles;
    if (!save) {
      this.refuse(id, JSON_RPC_ERRORS.methodNotFound, 'Method not found: ui/download-file.');
      return;
    }
    await this.serving(id, 'ui/download-file', async (serve) => {
      const gathered = await appDownloadFiles(contents, (uri) => serve({ method: 'resources/read', uri }));
      if ('refusal' in gathered) {
        this.refuse(id, gathered.refusal.code, gathered.refusal.message);
        return;
      }
      const asked = await serve({ method: 'ui/download-file', files: describedFiles(gathered.files) });
      const saved = 'result' in asked && (await save(gathered.files));
      this.answer(id, { result: saved ? {} : { isError: true } });
    });
  }

  /**
   * A message or context the host checked (the runtime checks the images' bytes, and asks the user about a message),
   * or its refusal.
   */
  private async forwardChecked(id: string | number, checked: CheckedAppRequest): Promise<void> {
    if (checked.ok) await this.forward(id, checked.request);
    else this.refuse(id, checked.code, checked.reason);
  }

  /** Switches only to a mode the host has and the app declared; answers the mode the app is shown in. */
  private requestDisplayMode(id: string | number, requested: McpAppDisplayMode): void {
    if (!this.initialized) {
      this.refuse(id, JSON_RPC_ERRORS.invalidRequest, 'Call ui/initialize and send initialized first.');
      return;
    }
    const current = (this.context.displayMode as McpAppDisplayMode | undefined) ?? 'inline';
    const mode = this.options.showIn ? resultingDisplayMode(requested, current, this.declaredModes) : current;
    if (mode !== current) this.options.showIn?.(mode);
    this.answer(id, { result: { mode } });
  }

  private log(params: Extract<McpAppMethodMessage, { method: 'notifications/message' }>['params']): void {
    this.record.logs += 1;
    const text = typeof params.data === 'string' ? params.data : JSON.stringify(params.data);
    this.options.onLog?.({
      level: params.level,
      ...(params.logger ? { logger: params.logger } : {}),
      text: text.slice(0, LOG_TEXT_LIMIT),
    });
  }

  private deliver(): void {
    const { app } = this.options;
    this.options.post({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: app.input } });
    this.options.post({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: app.result });
    this.record.deliveredResult = true;
    this.options.onInitialized(app.resourceUri);
  }

  private async callTool(
    id: string | number,
    name: string,
    input: JsonObject,
    meta: { progressToken?: string | number } | undefined,
  ): Promise<void> {
    if (!this.initialized) {
      this.refuse(id, JSON_RPC_ERRORS.invalidRequest, 'Call ui/initialize and send initialized first.');
      return;
    }
    if (this.pending >= MAX_PENDING_CALLS) {
      this.refuse(id, JSON_RPC_ERRORS.internal, 'Too many tool calls are waiting; wait for their answers.');
      return;
    }
    this.pending += 1;
    this.record.calls += 1;
    const stopReporting = this.reportProgress(id, meta?.progressToken);
    try {
      const answer = await this.options.callTool(name, input);
      if ('result' in answer) this.answer(id, { result: answer.result });
      else this.answer(id, { error: { code: JSON_RPC_ERRORS.internal, message: answer.error } });
    } finally {
      stopReporting();
      this.pending -= 1;
    }
  }

  /** Runs a request that may wait for the user, reporting progress on its token (if it has one) meanwhile. */
  private async waitingForUser(
    id: string | number,
    meta: { progressToken?: string | number } | undefined,
    work: () => Promise<void>,
  ): Promise<void> {
    const stopReporting = this.reportProgress(id, meta?.progressToken);
    try {
      await work();
    } finally {
      stopReporting();
    }
  }

  /** Posts `notifications/progress` on the token every `MCP_APP_PROGRESS_EVERY_MS` until stopped; returns the stop. */
  private reportProgress(id: string | number, progressToken: string | number | undefined): () => void {
    if (progressToken === undefined) return () => undefined;
    let progress = 0;
    const reporting = setInterval(() => {
      if (this.closed || this.cancelled.has(id)) return;
      progress += 1;
      this.options.post({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, progress } });
    }, MCP_APP_PROGRESS_EVERY_MS);
    return () => clearInterval(reporting);
  }

  /** Answers a request with an error (a notification gets none) and reports it, a bounded number of times. */
  private refuse(id: string | number | null | undefined, code: number, message: string): void {
    this.record.refused += 1;
    if (id !== undefined && !this.closed) this.options.post({ jsonrpc: '2.0', id, error: { code, message } });
    if (this.refusals >= MAX_REFUSALS) return;
    this.refusals += 1;
    this.options.onRefused(message);
  }
}

function isWebLink(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol } = new URL(url);
  return protocol === 'http:' || protocol === 'https:';
}
