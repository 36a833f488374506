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
  /** A turn without a message that runs the failed model request of that turn (its attempt) again. */
  retryStep?: { turnId: string; attemptId: string };
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

/**
 * Regenerate: the same message answered again, as a sibling of the turn that answered it. A step retry has no
 * message: answering it again is running the same failed request again, after the same turn.
 */
export function regenerateRequest(state: ClientState, turnId: string): TurnRequestDraft | undefined {
  const answered = state.turns[turnId];
  if (!answered) return undefined;
  if (answered.retriesStep)
    return { text: '', answerOf: turnId, overBudget: false, attachments: [], retryStep: answered.retriesStep };
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

/**
 * The failed model request of a turn, when that is how it ended: interrupted, with a model request's error as its
 * last entry (what the loop writes when a request fails after its own retries). Undefined for any other ending.
 */
export function failedStepOf(
  state: Pick<ClientState, 'turns'>,
  turnId: string,
): { turnId: string; attemptId: string } | undefined {
  const turn = state.turns[turnId];
  if (turn?.status !== 'interrupted') return undefined;
  const last = turn.entries.at(-1);
  const error = last?.kind === 'error' ? turn.errors[last.index] : undefined;
  return error ? { turnId, attemptId: error.attemptId } : undefined;
}

/**
 * Retry step: a new turn after the failed one, without a message, whose first request is the failed one's history
 * (its completed steps and their tool results), so the model is asked again and no completed call runs again.
 */
export function stepRetryRequest(state: ClientState, turnId: string): TurnRequestDraft | undefined {
  const failed = failedStepOf(state, turnId);
  if (!failed) return undefined;
  return { text: '', overBudget: false, attachments: [], retryStep: failed };
}
