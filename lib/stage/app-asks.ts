import type { JsonObject } from '../protocol/json-value';
import type { McpAppRequest, McpAppToolAnswer } from '../protocol/mcp-app-runtime-wire';
import type { StageReportMessage } from '../protocol/runtime-message';

/** An MCP App's `tools/call` or request, as the stage sends it to the runtime. */
export type AppAsk = Extract<StageReportMessage, { type: 'stage/app-tool-call' | 'stage/app-request' }>;

export interface AppAsksOptions {
  /** Posts to the runtime's port; throws when the port is gone and its loss not yet told. */
  send(message: AppAsk): void;
  newId(): string;
}

/**
 * An app's calls and requests waiting for the runtime's answer, by request id. Those made while the runtime is away
 * (its worker restarting) wait and go out on the new port; those already sent when it went away are answered with an
 * error, as the runtime that had them is gone.
 */
export class AppAsks {
  private readonly waiting = new Map<string, (answer: McpAppToolAnswer) => void>();
  private readonly unsent: AppAsk[] = [];
  private readonly sent = new Set<string>();
  private portOpen = true;

  constructor(private readonly options: AppAsksOptions) {}

  /** The app's own `tools/call`, run by the runtime with the normal approvals. */
  callTool(targetId: string, name: string, input: JsonObject): Promise<McpAppToolAnswer> {
    return this.ask((requestId) => ({
      type: 'stage/app-tool-call',
      targetId,
      requestId,
      call: { name, arguments: input },
    }));
  }

  /** The app's `ui/message`, `ui/open-link`, `resources/read` or `ui/update-model-context`. */
  request(targetId: string, request: McpAppRequest): Promise<McpAppToolAnswer> {
    return this.ask((requestId) => ({ type: 'stage/app-request', targetId, requestId, request }));
  }

  /** The runtime's answer (`stage/app-tool-result`). */
  answer(requestId: string, answer: McpAppToolAnswer): void {
    this.waiting.get(requestId)?.(answer);
    this.waiting.delete(requestId);
    this.sent.delete(requestId);
  }

  /** The app is closed: everything it still waits for is answered with an error. */
  closeAll(): void {
    for (const [requestId, answer] of this.waiting) {
      answer({ error: 'The app was closed before its call was answered.' });
      this.waiting.delete(requestId);
    }
  }

  portLost(): void {
    this.portOpen = false;
    for (const requestId of this.sent) {
      this.waiting.get(requestId)?.({
        error: 'The extension restarted before answering; it may or may not have been done.',
      });
      this.waiting.delete(requestId);
    }
    this.sent.clear();
  }

  portReopened(): void {
    this.portOpen = true;
    for (const message of this.unsent.splice(0)) if (this.waiting.has(message.requestId)) this.report(message);
  }

  private ask(message: (requestId: string) => AppAsk): Promise<McpAppToolAnswer> {
    return new Promise<McpAppToolAnswer>((resolve) => {
      const requestId = this.options.newId();
      this.waiting.set(requestId, resolve);
      this.report(message(requestId));
    });
  }

  private report(message: AppAsk): void {
    if (!this.portOpen) {
      this.unsent.push(message);
      return;
    }
    try {
      this.options.send(message);
      this.sent.add(message.requestId);
    } catch {
      // The port is gone and its loss not yet told: the message never left, so it goes out on the new port.
      this.unsent.push(message);
    }
  }
}
