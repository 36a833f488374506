import browser from 'webextension-polyfill';
import type { AgentEvent } from '@/lib/protocol/agent-event';
import {
  publisherMessageSchema,
  type PublisherMessage,
  type RuntimeRequest,
  type SubscriberMessage,
} from '@/lib/protocol/runtime-message';
import { openReconnectingPort } from '@/lib/protocol/reconnecting-port';
import { RuntimeCallChannel } from '@/lib/protocol/runtime-call-channel';
import { readAllEvents } from '@/lib/protocol/read-all-events';
import { parseRuntimeResult, type RuntimeResult } from '@/lib/protocol/runtime-result-schemas';
import { errorText } from '@/lib/protocol/error-text';
import { issuesText } from '@/lib/protocol/issue-text';

const RETRYABLE =
  /Could not establish connection|Receiving end does not exist|message port closed|message channel closed/i;

const calls = new RuntimeCallChannel({
  connect: () => browser.runtime.connect({ name: 'calls' }),
  newCallId: () => crypto.randomUUID(),
});

/** Sends one request to the runtime and checks its result; retries while the service worker is (re)starting. */
export async function callRuntime<TRequest extends RuntimeRequest>(
  request: TRequest,
  attempts = 4,
): Promise<RuntimeResult<TRequest['type']>> {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await calls.call(request);
      if (!response.ok) throw new Error(response.error);
      const result = parseRuntimeResult<TRequest['type']>(request.type, response.result);
      if (!result.success)
        throw new Error(
          `The background answered ${request.type} with an invalid result: ${issuesText(result.error.issues.slice(0, 1)) || 'unknown problem'}`,
        );
      return result.data;
    } catch (error) {
      const message = errorText(error);
      if (attempt >= attempts || !RETRYABLE.test(message)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 150 * attempt));
    }
  }
}

export async function readEvents(sessionId: string, afterSeq: number): Promise<AgentEvent[]> {
  return readAllEvents(
    async (after, limit) => (await callRuntime({ type: 'events/read', sessionId, afterSeq: after, limit })).events,
    afterSeq,
  );
}

export interface EventsConnection {
  subscribe(sessionId: string, generation: number): void;
  requestTurns(sessionId: string, generation: number, before: number, limit: number): void;
  ownTurn(sessionId: string, turnId: string): void;
  releaseTurn(sessionId: string, turnId: string): void;
  /** Tells the runtime which conversation this panel shows and whether its page is visible (kept across reconnects). */
  reportVisibility(sessionId: string, visible: boolean): void;
  close(): void;
}

/** The `events` port, reopened whenever the service worker goes away; `onReconnect` lets callers resubscribe, `onDisconnect` lets them show it. */
export function openEventsConnection(
  onMessage: (message: PublisherMessage) => void,
  onReconnect: () => void,
  onDisconnect?: () => void,
): EventsConnection {
  const owned = new Map<string, string>();
  let shown: SubscriberMessage | undefined;
  const port = openReconnectingPort<SubscriberMessage, PublisherMessage>({
    name: 'events',
    connect: (name) => browser.runtime.connect({ name }),
    schema: publisherMessageSchema,
    onMessage,
    onDisconnect,
    onReconnect: () => {
      for (const [turnId, sessionId] of owned) port.post({ type: 'turn/own', sessionId, turnId });
      if (shown) port.post(shown);
      onReconnect();
    },
  });
  return {
    subscribe: (sessionId, generation) => port.post({ type: 'events/subscribe', sessionId, generation }),
    requestTurns: (sessionId, generation, before, limit) =>
      port.post({ type: 'turns/before', sessionId, generation, before, limit }),
    ownTurn: (sessionId, turnId) => {
      owned.set(turnId, sessionId);
      port.post({ type: 'turn/own', sessionId, turnId });
    },
    releaseTurn: (sessionId, turnId) => {
      owned.delete(turnId);
      port.post({ type: 'turn/release', sessionId, turnId });
    },
    reportVisibility: (sessionId, visible) => {
      shown = { type: 'panel/visibility', sessionId, visible };
      port.post(shown);
    },
    close: () => port.close(),
  };
}
