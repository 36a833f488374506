import type { MessageAttachment } from '../protocol/upload-events';
import type { ClientState } from '../state/client-state';

/**
 * What one send asks for: the text, the turn it retries (left out of the model's history), the branch it
 * continues (the one in view unless told), the message it answers again, the files.
 */
export interface TurnRequestDraft {
  text: string;
  retryOf?: string;
  parentTurnId?: string | null;
  answerOf?: string;
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

/** An edited message: a new branch at the edited turn's place, with its files; the edited turn stays a sibling. */
export function resendRequest(state: ClientState, text: string, turnId: string): TurnRequestDraft {
  return {
    text,
    parentTurnId: state.branches.parents[turnId] ?? null,
    overBudget: false,
    attachments: state.turns[turnId]?.attachments ?? [],
  };
}

/** Regenerate: the same message answered again, as a sibling of the turn that answered it. */
export function regenerateRequest(state: ClientState, turnId: string): TurnRequestDraft | undefined {
  const answered = state.turns[turnId];
  if (!answered) return undefined;
  return {
    text: answered.userText,
    parentTurnId: state.branches.parents[turnId] ?? null,
    answerOf: turnId,
    overBudget: false,
    attachments: answered.attachments ?? [],
  };
}
