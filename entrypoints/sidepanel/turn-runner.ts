import type { ModelMessage } from 'ai';
import { runAgentTurn, type TurnOutcome } from '@/lib/agent/agent-loop';
import { describeWriteFailure } from '@/lib/agent/describe-write-failure';
import { EventOutbox } from '@/lib/agent/event-outbox';
import { modelHistory } from '@/lib/agent/model-history';
import { createLanguageModel } from '@/lib/providers/create-language-model';
import type { EndpointSettings } from '@/lib/settings/endpoint-settings';
import type { ClientState } from '@/lib/state/client-state';
import { appendEvents, callRuntime, type EventsConnection } from '../shared/runtime-client';

export interface TurnHandle {
  turnId: string;
  /** Stops this turn; `commandId` names the cancel command (a new one when the user presses Stop here). */
  stop(commandId?: string): void;
  /** Adds to this turn while it runs: queued by the runtime and applied at the next safe point. */
  steer(text: string): Promise<void>;
  /** Settles once the user's message is in the log; rejects if it could not be written, so the text can go back to the composer. */
  recorded: Promise<void>;
  done: Promise<TurnOutcome>;
}

/** Rejects as soon as the signal aborts, so a stopped turn never waits on a request still in flight. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('Stopped by the user.'));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new Error('Stopped by the user.'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Starts one turn: records it, runs the agent loop in this document, and owns the turn until it ends. */
export function startTurn(
  settings: EndpointSettings,
  state: ClientState,
  text: string,
  connection: EventsConnection,
  retryOf?: string,
): TurnHandle {
  const sessionId = state.sessionId;
  const turnId = crypto.randomUUID();
  const controller = new AbortController();
  let cancelCommandId: string | undefined;
  const newId = () => crypto.randomUUID();
  const now = () => Date.now();
  let markRecorded: () => void = () => undefined;
  let markUnrecorded: (error: Error) => void = () => undefined;
  const recorded = new Promise<void>((resolve, reject) => {
    markRecorded = resolve;
    markUnrecorded = reject;
  });
  // A caller that does not wait for it must not see an unhandled rejection; the turn's own failure says the same.
  recorded.catch(() => undefined);
  const outbox = new EventOutbox(async (drafts) => {
    try {
      await appendEvents(sessionId, drafts);
    } catch (error) {
      const failure = new Error(describeWriteFailure(error));
      markUnrecorded(failure);
      throw failure;
    }
    if (drafts.some((draft) => draft.type === 'turn/started')) markRecorded();
  });
  connection.ownTurn(sessionId, turnId);
  outbox.emit([
    ...(state.turnOrder.length === 0
      ? [{ type: 'session/created' as const, sessionId, time: now(), data: { title: text.slice(0, 80) } }]
      : []),
    {
      type: 'turn/started',
      sessionId,
      turnId,
      time: now(),
      data: { userItemId: newId(), text, ...(retryOf ? { retryOf } : {}) },
    },
  ]);
  const history = modelHistory(
    retryOf ? { ...state, turnOrder: state.turnOrder.filter((turnId) => turnId !== retryOf) } : state,
  );
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
      // A call waiting for the user's approval or answer comes back as `waiting`: ask again until it is settled.
      for (;;) {
        const result = await untilAborted(
          callRuntime({ type: 'tool/execute', sessionId, turnId, ...call }, 6),
          controller.signal,
        );
        if (result.status !== 'waiting') return result.output;
      }
    },
    takeSteers: async () => (await callRuntime({ type: 'steer/take', sessionId, turnId }, 6)).steers,
    cancelCommandId: () => cancelCommandId,
    signal: controller.signal,
    endpointUrl: settings.baseUrl,
    ...(settings.streamIdleTimeoutSeconds === undefined
      ? {}
      : { streamIdleTimeoutMs: settings.streamIdleTimeoutSeconds * 1000 }),
    secrets: settings.apiKey ? [settings.apiKey] : [],
    newId,
    now,
  }).finally(() => connection.releaseTurn(sessionId, turnId));
  const stop = (commandId?: string) => {
    if (controller.signal.aborted) return;
    cancelCommandId = commandId ?? newId();
    controller.abort();
    if (!commandId)
      void callRuntime(
        { type: 'command/submit', kind: 'cancel', sessionId, turnId, commandId: cancelCommandId },
        6,
      ).catch(() => undefined);
  };
  const steer = async (text: string) => {
    await outbox.flush();
    await callRuntime({ type: 'command/submit', kind: 'steer', sessionId, turnId, commandId: newId(), text }, 6);
  };
  return { turnId, stop, steer, recorded, done };
}
