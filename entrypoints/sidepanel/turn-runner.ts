import type { ModelMessage } from 'ai';
import { runAgentTurn, type TurnOutcome } from '@/lib/agent/agent-loop';
import { describeWriteFailure } from '@/lib/agent/describe-write-failure';
import { EventOutbox } from '@/lib/agent/event-outbox';
import { modelHistory } from '@/lib/agent/model-history';
import type { JsonValue } from '@/lib/protocol/json-value';
import { createLanguageModel } from '@/lib/providers/create-language-model';
import type { EndpointSettings } from '@/lib/settings/endpoint-settings';
import type { ClientState } from '@/lib/state/client-state';
import { appendEvents, callRuntime, type EventsConnection } from '../shared/runtime-client';

export interface TurnHandle {
  turnId: string;
  stop(): void;
  done: Promise<TurnOutcome>;
}

/** Starts one turn: records it, runs the agent loop in this document, and owns the turn until it ends. */
export function startTurn(settings: EndpointSettings, state: ClientState, text: string, connection: EventsConnection, retryOf?: string): TurnHandle {
  const sessionId = state.sessionId;
  const turnId = crypto.randomUUID();
  const controller = new AbortController();
  const newId = () => crypto.randomUUID();
  const now = () => Date.now();
  const outbox = new EventOutbox(async (drafts) => {
    await appendEvents(sessionId, drafts).catch((error: unknown) => {
      throw new Error(describeWriteFailure(error));
    });
  });
  connection.ownTurn(sessionId, turnId);
  if (state.turnOrder.length === 0) outbox.emit([{ type: 'session/created', sessionId, time: now(), data: { title: text.slice(0, 80) } }]);
  outbox.emit([{ type: 'turn/started', sessionId, turnId, time: now(), data: { userItemId: newId(), text, ...(retryOf ? { retryOf } : {}) } }]);
  const history = modelHistory(retryOf ? { ...state, turnOrder: state.turnOrder.filter((turnId) => turnId !== retryOf) } : state);
  const messages: ModelMessage[] = [...history, { role: 'user', content: text }];
  const done = runAgentTurn({
    model: createLanguageModel(settings, { chatId: sessionId }),
    sessionId,
    turnId,
    messages,
    emit: (drafts) => outbox.emit(drafts),
    flush: () => outbox.flush(),
    executeTool: async (call) => {
      await outbox.flush();
      const result = await callRuntime<{ output: JsonValue }>({ type: 'tool/execute', sessionId, turnId, ...call, time: now() }, 6);
      return result.output;
    },
    signal: controller.signal,
    endpointUrl: settings.baseUrl,
    ...(settings.streamIdleTimeoutSeconds === undefined ? {} : { streamIdleTimeoutMs: settings.streamIdleTimeoutSeconds * 1000 }),
    secrets: settings.apiKey ? [settings.apiKey] : [],
    newId,
    now,
  }).finally(() => connection.releaseTurn(sessionId, turnId));
  return { turnId, stop: () => controller.abort(), done };
}
