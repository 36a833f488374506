import type { LanguageModel } from 'ai';
import { toolsText } from '../context/estimate-prompt-tokens';
import type { ClientState } from '../state/client-state';
import type { EndpointSettings } from '../settings/endpoint-settings';
import { ContextKeeper } from './context-keeper';
import { modelHistoryWithBoundaries } from './model-history';
import type { RuntimeClient } from './runtime-client';
import { SYSTEM_PROMPT } from './system-prompt';
import { turnContext } from './turn-context';

export interface CompactRequest {
  client: RuntimeClient;
  settings: EndpointSettings;
  /** The whole conversation, every turn loaded. */
  state: ClientState;
  /** Made from the settings unless a test passes one. */
  model?: LanguageModel;
  signal?: AbortSignal;
  newId?(): string;
  now?(): number;
}

export type CompactOutcome = { kind: 'compacted'; compactionId: string } | { kind: 'nothing'; reason: string };

/**
 * Summarises the conversation up to its last turn now, as the user asked, between turns: the same summary request
 * and `context/compacted` event as a compaction at the threshold, with `trigger: 'user'`. The last turn stays in full.
 */
export async function compactConversation(request: CompactRequest): Promise<CompactOutcome> {
  const { client, settings, state } = request;
  const lastTurnId = state.turnOrder.at(-1);
  if (!lastTurnId || state.turnOrder.length < 2)
    return { kind: 'nothing', reason: 'There is nothing to compact yet: the conversation has one turn.' };
  const history = modelHistoryWithBoundaries(state, undefined);
  const newId = request.newId ?? (() => crypto.randomUUID());
  const now = request.now ?? (() => Date.now());
  const model =
    request.model ??
    (await import('../providers/create-language-model')).createLanguageModel(settings, {
      chatId: state.sessionId,
    });
  const context = await turnContext.load();
  const keeper = new ContextKeeper(
    context.options({ settings, state, model, boundaries: history.boundaries }),
    { sessionId: state.sessionId, turnId: lastTurnId, newId, now },
    { system: SYSTEM_PROMPT, toolsText: toolsText({}) },
  );
  const compacted = await keeper.compact(history.messages, 'user', request.signal ?? new AbortController().signal);
  if (!compacted || compacted.event.type !== 'context/compacted')
    return { kind: 'nothing', reason: 'There is nothing to compact: every earlier turn is already summarised.' };
  await client.appendEvents(state.sessionId, [compacted.event]);
  return { kind: 'compacted', compactionId: compacted.event.compactionId };
}
