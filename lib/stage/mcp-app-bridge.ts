import type { JsonObject } from '../protocol/json-value';
import {
  JSON_RPC_ERRORS,
  MCP_APP_DECLINED,
  MCP_APP_PROTOCOL_VERSION,
  jsonRpcEnvelopeSchema,
  mcpAppToHostMessageSchema,
  type McpAppFromHostMessage,
  type McpAppLoad,
  type McpAppRequest,
  type McpAppToolAnswer,
} from '../protocol/mcp-app-wire';

export interface McpAppBridgeOptions {
  app: McpAppLoad;
  /** Posts to the app's window. */
  post(message: McpAppFromHostMessage): void;
  /** The app's own `tools/call`, run by the runtime with the normal approvals. */
  callTool(name: string, input: JsonObject): Promise<McpAppToolAnswer>;
  /** The app's `ui/message`, `ui/open-link` and `resources/read`, served by the runtime; without it, refused. */
  request?(request: McpAppRequest): Promise<McpAppToolAnswer>;
  /** The size the app says its content has. */
  onSize(size: { width?: number; height?: number }): void;
  /** Something the app sent that the host refused, for the log. */
  onRefused(reason: string): void;
  /** The handshake is complete and the app has the tool input and result. */
  onInitialized(appInfo: string): void;
  hostContext: JsonObject;
}

/** Refusals reported per app: a frame that posts garbage in a loop must not flood the runtime. */
const MAX_REFUSALS = 20;
/** Calls of one app waiting for the user or the server at once. */
const MAX_PENDING_CALLS = 4;

/**
 * The host side of the MCP Apps protocol for one app in the stage: answers `ui/initialize`, sends the opening
 * call's input and result once the app is initialized, proxies the app's `tools/call` to the runtime, and refuses
 * everything else with a JSON-RPC error. Pass it only messages whose `event.source` is this app's frame.
 */
export class McpAppBridge {
  private initialized = false;
  private refusals = 0;
  private pending = 0;
  /** What the app has been sent and asked, for the stage's own status and the tests reading it. */
  readonly record = { deliveredResult: false, calls: 0, refused: 0 };

  constructor(private readonly options: McpAppBridgeOptions) {}

  receive(data: unknown): void {
    const parsed = mcpAppToHostMessageSchema.safeParse(data);
    if (parsed.success) {
      void this.handle(parsed.data);
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
    const known = mcpAppToHostMessageSchema.options.some((option) => option.shape.method.value === method);
    if (known) this.refuse(id, JSON_RPC_ERRORS.invalidParams, `Invalid params for ${method}.`);
    else this.refuse(id, JSON_RPC_ERRORS.methodNotFound, `Method not found: ${method ?? '(none)'}.`);
  }

  private async handle(message: ReturnType<typeof mcpAppToHostMessageSchema.parse>): Promise<void> {
    switch (message.method) {
      case 'ui/initialize':
        this.options.post({
          jsonrpc: '2.0',
          id: message.id,
          result: {
            protocolVersion: MCP_APP_PROTOCOL_VERSION,
            hostInfo: { name: 'splitbrain', version: '0.1.0' },
            hostCapabilities: {
              serverTools: {},
              ...(this.options.request ? { serverResources: {}, openLinks: {}, message: { text: {} } } : {}),
            },
            hostContext: this.options.hostContext,
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
        await this.callTool(message.id, message.params.name, message.params.arguments);
        return;
      case 'ui/message':
        await this.forward(message.id, { method: message.method, text: messageText(message.params.content) });
        return;
      case 'ui/open-link':
        if (!isWebLink(message.params.url)) {
          this.refuse(message.id, JSON_RPC_ERRORS.invalidParams, 'Only http and https links are opened.');
          return;
        }
        await this.forward(message.id, { method: message.method, url: message.params.url });
        return;
      case 'resources/read':
        await this.forward(message.id, { method: message.method, uri: message.params.uri });
        return;
    }
  }

  /** A request the runtime serves (the user may be asked first); a refusal is the spec's -32000. */
  private async forward(id: string | number, request: McpAppRequest): Promise<void> {
    const serve = this.options.request;
    if (!serve) {
      this.refuse(id, JSON_RPC_ERRORS.methodNotFound, `Method not found: ${request.method}.`);
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
      const answer = await serve(request);
      if ('result' in answer) this.options.post({ jsonrpc: '2.0', id, result: answer.result });
      else this.options.post({ jsonrpc: '2.0', id, error: { code: MCP_APP_DECLINED, message: answer.error } });
    } finally {
      this.pending -= 1;
    }
  }

  private deliver(): void {
    const { app } = this.options;
    this.options.post({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: app.input } });
    this.options.post({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: app.result });
    this.record.deliveredResult = true;
    this.options.onInitialized(app.resourceUri);
  }

  private async callTool(id: string | number, name: string, input: JsonObject): Promise<void> {
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
    try {
      const answer = await this.options.callTool(name, input);
      if ('result' in answer) this.options.post({ jsonrpc: '2.0', id, result: answer.result });
      else this.options.post({ jsonrpc: '2.0', id, error: { code: JSON_RPC_ERRORS.internal, message: answer.error } });
    } finally {
      this.pending -= 1;
    }
  }

  /** Answers a request with an error (a notification gets none) and reports it, a bounded number of times. */
  private refuse(id: string | number | null | undefined, code: number, message: string): void {
    this.record.refused += 1;
    if (id !== undefined) this.options.post({ jsonrpc: '2.0', id, error: { code, message } });
    if (this.refusals >= MAX_REFUSALS) return;
    this.refusals += 1;
    this.options.onRefused(message);
  }
}

function messageText(content: { text: string } | { text: string }[]): string {
  return (Array.isArray(content) ? content : [content]).map((block) => block.text).join('\n\n');
}

function isWebLink(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol } = new URL(url);
  return protocol === 'http:' || protocol === 'https:';
}
