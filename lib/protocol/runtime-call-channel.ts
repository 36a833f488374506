import { z } from 'zod';
import type { MessagePortLike } from './reconnecting-port';
import { callPortReplySchema, type CallPortRequest, type RuntimeResponse } from './runtime-message';

/** What a call pending on a lost port fails with: the caller retries it as it does a closed `sendMessage` channel. */
export const CALL_PORT_CLOSED = 'The message port closed before a response was received.';

const addressedSchema = z.object({ callId: z.string() });

export interface RuntimeCallChannelOptions {
  connect(): MessagePortLike;
  newCallId(): string;
}

interface PendingCall {
  resolve(response: RuntimeResponse): void;
  reject(error: Error): void;
}

/**
 * Runtime requests over one long-lived `calls` port: opened by the first call, and again by the first call after it
 * was lost (the service worker stopped). A message per call on an open port costs a fraction of a `sendMessage`,
 * which sets up a channel each time.
 */
export class RuntimeCallChannel {
  private port: MessagePortLike | undefined;
  private readonly pending = new Map<string, PendingCall>();

  constructor(private readonly options: RuntimeCallChannelOptions) {}

  /** The runtime's response to `request`, checked; it rejects with CALL_PORT_CLOSED if the port is lost first. */
  call(request: unknown): Promise<RuntimeResponse> {
    return new Promise((resolve, reject) => {
      const callId = this.options.newCallId();
      const message: CallPortRequest = { type: 'call/request', callId, request };
      try {
        const port = this.port ?? this.open();
        this.pending.set(callId, { resolve, reject });
        port.postMessage(message);
      } catch (error) {
        this.pending.delete(callId);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  private open(): MessagePortLike {
    const port = this.options.connect();
    this.port = port;
    port.onMessage.addListener((raw) => this.receive(raw));
    port.onDisconnect.addListener(() => {
      if (this.port !== port) return;
      this.port = undefined;
      const lost = [...this.pending.values()];
      this.pending.clear();
      for (const call of lost) call.reject(new Error(CALL_PORT_CLOSED));
    });
    return port;
  }

  private receive(raw: unknown): void {
    const addressed = addressedSchema.safeParse(raw);
    const call = addressed.success ? this.pending.get(addressed.data.callId) : undefined;
    if (!addressed.success || !call) return;
    this.pending.delete(addressed.data.callId);
    const reply = callPortReplySchema.safeParse(raw);
    if (reply.success) call.resolve(reply.data.response);
    else call.reject(new Error('The background answered with an invalid response.'));
  }
}
