import browser from 'webextension-polyfill';
import type { AgentEvent, AgentEventDraft } from '@/lib/protocol/agent-event';
import {
  publisherMessageSchema,
  runtimeResponseSchema,
  type PublisherMessage,
  type RuntimeRequest,
} from '@/lib/protocol/runtime-message';
import { parseRuntimeResult, type RuntimeResult } from '@/lib/protocol/runtime-result-schemas';

const RETRYABLE =
  /Could not establish connection|Receiving end does not exist|message port closed|message channel closed/i;

/** Sends one request to the runtime and checks its result; retries while the service worker is (re)starting. */
export async function callRuntime<TRequest extends RuntimeRequest>(
  request: TRequest,
  attempts = 4,
): Promise<RuntimeResult<TRequest['type']>> {
  for (let attempt = 1; ; attempt++) {
    try {
      const parsed = runtimeResponseSchema.safeParse(await browser.runtime.sendMessage(request));
      if (!parsed.success) throw new Error('The background answered with an invalid response.');
      if (!parsed.data.ok) throw new Error(parsed.data.error);
      const result = parseRuntimeResult<TRequest['type']>(request.type, parsed.data.result);
      if (!result.success)
        throw new Error(
          `The background answered ${request.type} with an invalid result: ${describeIssue(result.error)}`,
        );
      return result.data;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (attempt >= attempts || !RETRYABLE.test(message)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 150 * attempt));
    }
  }
}

function describeIssue(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.map(String).join('.')}: ${issue.message}` : 'unknown problem';
}

/** The batch id makes a retry after a lost reply harmless: the runtime writes each batch once. */
export function appendEvents(sessionId: string, events: AgentEventDraft[]): Promise<{ lastSeq: number }> {
  return callRuntime({ type: 'events/append', sessionId, batchId: crypto.randomUUID(), events });
}

export async function readEvents(sessionId: string, afterSeq: number): Promise<AgentEvent[]> {
  return (await callRuntime({ type: 'events/read', sessionId, afterSeq })).events;
}

export interface EventsConnection {
  subscribe(sessionId: string, generation: number): void;
  ownTurn(sessionId: string, turnId: string): void;
  releaseTurn(sessionId: string, turnId: string): void;
  close(): void;
}

/** The `events` port, reopened whenever the service worker goes away; `onReconnect` lets callers resubscribe, `onDisconnect` lets them show it. */
export function openEventsConnection(
  onMessage: (message: PublisherMessage) => void,
  onReconnect: () => void,
  onDisconnect?: () => void,
): EventsConnection {
  let port: ReturnType<typeof browser.runtime.connect> | undefined;
  let closed = false;
  const owned = new Map<string, string>();
  const connect = () => {
    port = browser.runtime.connect({ name: 'events' });
    port.onMessage.addListener((raw: unknown) => {
      const parsed = publisherMessageSchema.safeParse(raw);
      if (parsed.success) onMessage(parsed.data);
    });
    port.onDisconnect.addListener(() => {
      port = undefined;
      if (closed) return;
      onDisconnect?.();
      setTimeout(() => {
        connect();
        for (const [turnId, sessionId] of owned) port?.postMessage({ type: 'own-turn', sessionId, turnId });
        onReconnect();
      }, 100);
    });
  };
  connect();
  return {
    subscribe: (sessionId, generation) => port?.postMessage({ type: 'subscribe', sessionId, generation }),
    ownTurn: (sessionId, turnId) => {
      owned.set(turnId, sessionId);
      port?.postMessage({ type: 'own-turn', sessionId, turnId });
    },
    releaseTurn: (sessionId, turnId) => {
      owned.delete(turnId);
      port?.postMessage({ type: 'release-turn', sessionId, turnId });
    },
    close: () => {
      closed = true;
      port?.disconnect();
    },
  };
}
