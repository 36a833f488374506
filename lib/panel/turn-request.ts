import type { MessageAttachment } from '../protocol/upload-events';
import type { ClientState } from '../state/client-state';
import { isRetryableTool, retriedCall, retryNote, type RetriedCall } from '../agent/retried-call';

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
  /** A turn that runs this failed call again first. */
  retry?: RetriedCall;
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

/** Whether a call's card offers Retry: it failed or its outcome is unknown, and no later attempt of it exists. */
export function canRetryToolCall(state: Pick<ClientState, 'toolCalls'>, toolCallId: string): boolean {
  const call = state.toolCalls[toolCallId];
  if (!call || (call.status !== 'failed' && call.status !== 'unknown')) return false;
  if (!isRetryableTool(call.toolName)) return false;
  const first = call.retryOf ?? call.toolCallId;
  const attempt = call.attempt ?? 1;
  return !Object.values(state.toolCalls).some((other) => other.retryOf === first && (other.attempt ?? 1) > attempt);
}

/** Retry on a tool card: a new turn on the branch in view that runs the call again, under a new attempt id. */
export function toolRetryRequest(
  state: ClientState,
  toolCallId: string,
  attemptId: string,
): TurnRequestDraft | undefined {
  const call = state.toolCalls[toolCallId];
  if (!call || !canRetryToolCall(state, toolCallId)) return undefined;
  return { text: retryNote(call), overBudget: false, attachments: [], retry: retriedCall(call, attemptId) };
}
