import { turnReplacedByEdit } from '../agent/turn-replaced-by-edit';
import type { MessageAttachment } from '../protocol/upload-events';
import type { ClientState } from '../state/client-state';

/** What one send asks for: the text, the turn it retries (left out of the model's history), the files. */
export interface TurnRequestDraft {
  text: string;
  retryOf?: string;
  /** Sent once over a budget that refused it. */
  overBudget: boolean;
  attachments: MessageAttachment[];
}

/** A message typed into the composer, with the files ready in it. */
export function composedRequest(text: string, attachments: MessageAttachment[]): TurnRequestDraft {
  return { text, overBudget: false, attachments };
}

/** Retry: the turn's own text and files again, as a new turn that replaces it. */
export function retryRequest(state: ClientState, turnId: string): TurnRequestDraft | undefined {
  const retried = state.turns[turnId];
  if (!retried) return undefined;
  return { text: retried.userText, retryOf: turnId, overBudget: false, attachments: retried.attachments ?? [] };
}

/** An edited message: a new turn with the edited turn's files; it replaces that turn only if that one failed last. */
export function resendRequest(state: ClientState, text: string, turnId: string): TurnRequestDraft {
  const retryOf = turnReplacedByEdit(state, turnId);
  return {
    text,
    ...(retryOf ? { retryOf } : {}),
    overBudget: false,
    attachments: state.turns[turnId]?.attachments ?? [],
  };
}
