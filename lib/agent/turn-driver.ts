import type { ModelMessage } from 'ai';
import { ENDPOINT_FILE_LIMITS, fileEndpointKind } from '../files/file-limits';
import { resolveBlobs, userMessageContent } from '../files/model-file-content';
import type { AgentEventDraft } from '../protocol/agent-event';
import type { MessageAttachment } from '../protocol/upload-events';
import type { ClientState } from '../state/client-state';
import type { TurnOutcome } from './turn-outcome';
import { describeWriteFailure } from './describe-write-failure';
import { driveTurn, type DriveRequest } from './drive-turn';
import { EventOutbox } from './event-outbox';
import { historyBlobRefs, modelHistoryWithBoundaries } from './model-history';
import type { HistoryBoundary } from '../context/history-cut';
import { retriedCallMessages, type RetriedCall } from './retried-call';
import { withAppContexts } from './app-context-message';
import { pendingAppContexts } from '../state/app-contexts';

export interface TurnHandle {
  turnId: string;
  /** Stops this turn; `commandId` names the cancel command (a new one when the user presses Stop here). */
  stop(commandId?: string): void;
  /** Adds to this turn while it runs: queued by the runtime and applied at the next safe point. */
  steer(text: string, commandId?: string): Promise<void>;
  /** Asks the runtime to pause this turn at its next safe point (after the running step or tool call). */
  pause(): Promise<void>;
  /** Settles once the user's message is in the log; rejects if it could not be written, so the text can go back to the composer. */
  recorded: Promise<void>;
  done: Promise<TurnOutcome>;
}

export interface TurnRequest extends DriveRequest {
  /** The session as this document sees it: its history goes to the model. */
  state: ClientState;
  text: string;
  /** The failed turn this one retries: left out of the model's history. */
  retryOf?: string;
  /** The turn this one follows on its branch (null: a new first message); the branch in view's last one unless told. */
  parentTurnId?: string | null;
  /** A regeneration: the turn whose message this one answers again. */
  answerOf?: string;
  /** The user confirmed starting this turn although a budget is reached: it is not stopped by budget. */
  overBudget?: boolean;
  /** Files sent with the message, each `ready` in the composer. */
  attachments?: MessageAttachment[];
  /** The turn runs this failed call again before the model's first request, which then carries its result. */
  retry?: RetriedCall;
  /**
   * The turn runs again the model request that failed in `turnId` (attempt `attemptId`): a continuation of that turn
   * without a message of its own, so its first request is that turn's history through its last committed tool
   * results, and the calls that completed there do not run again. `text` is empty; the turn follows `turnId`.
   */
  retryStep?: { turnId: string; attemptId: string };
  newId?(): string;
  now?(): number;
}

function uploadStates(
  attachments: readonly MessageAttachment[],
  state: 'attached' | 'consumed',
  envelope: { sessionId: string; turnId: string; time: number },
): AgentEventDraft[] {
  return attachments.map((attachment) => ({
    type: 'upload/state' as const,
    sessionId: envelope.sessionId,
    uploadId: attachment.uploadId,
    partId: attachment.partId,
    time: envelope.time,
    data: {
      state,
      name: attachment.blob.name,
      size: attachment.blob.size,
      blob: attachment.blob,
      turnId: envelope.turnId,
    },
  }));
}

/** Starts one turn: records it, runs the agent loop in this document, and owns the turn until it ends. */
export function startTurn(request: TurnRequest): TurnHandle {
  const { client, settings, state, retryOf, overBudget, answerOf, retry, retryStep } = request;
  const text = retryStep ? '' : request.text;
  const parentTurnId = retryStep
    ? retryStep.turnId
    : request.parentTurnId === undefined
      ? state.branches.leaf
      : request.parentTurnId;
  const attachments = request.attachments ?? [];
  const newId = request.newId ?? (() => crypto.randomUUID());
  const now = request.now ?? (() => Date.now());
  const sessionId = state.sessionId;
  const turnId = newId();
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
      await client.appendEvents(sessionId, drafts);
    } catch (error) {
      const failure = new Error(describeWriteFailure(error));
      markUnrecorded(failure);
      throw failure;
    }
    if (drafts.some((draft) => draft.type === 'turn/started')) markRecorded();
  });
  // The model sees the branch this turn continues: the path to its parent.
  const branchState = { ...state, branches: { ...state.branches, leaf: parentTurnId } };
  const historyState = retryOf
    ? { ...branchState, turnOrder: state.turnOrder.filter((turnId) => turnId !== retryOf) }
    : branchState;
  // What the apps told the model since a message on this branch last carried it; a step retry has no message.
  const appContexts = retryStep ? [] : pendingAppContexts(historyState);
  client.ownTurn(sessionId, turnId);
  outbox.emit([
    ...(state.turnOrder.length === 0
      ? [{ type: 'session/created' as const, sessionId, time: now(), data: { title: text.slice(0, 80) } }]
      : []),
    {
      type: 'turn/started',
      sessionId,
      turnId,
      time: now(),
      data: {
        userItemId: newId(),
        text,
        ...(retryOf ? { retryOf } : {}),
        parentTurnId,
        ...(answerOf ? { answerOf } : {}),
        ...(overBudget ? { overBudget: true as const } : {}),
        ...(attachments.length ? { attachments } : {}),
        ...(retry ? { retriesToolCall: retry.toolCallId } : {}),
        ...(retryStep ? { retriesStep: { turnId: retryStep.turnId, attemptId: retryStep.attemptId } } : {}),
        ...(appContexts.length ? { appContexts: appContexts.map((context) => context.contextId) } : {}),
      },
    },
    ...uploadStates(attachments, 'attached', { sessionId, turnId, time: now() }),
  ]);
  const kind = fileEndpointKind(settings);
  const limits = ENDPOINT_FILE_LIMITS[kind];
  let consumed = attachments.length === 0;
  const emit = (drafts: AgentEventDraft[]) => {
    // The first finished model call has read the files: they are consumed.
    if (!consumed && drafts.some((draft) => draft.type === 'step/completed')) {
      consumed = true;
      drafts = [...drafts, ...uploadStates(attachments, 'consumed', { sessionId, turnId, time: now() })];
    }
    outbox.emit(drafts);
  };
  const retryStopped = new AbortController();
  // The runtime writes the attempt in this turn, so the turn must be recorded first.
  const runRetry = async (call: RetriedCall) => {
    await outbox.flush();
    const fileLimits = { kind, limits };
    const setup = { client, sessionId, turnId, files: request.files, fileLimits, signal: retryStopped.signal };
    return retriedCallMessages(setup, call);
  };
  const prepared = (async (): Promise<{ messages: ModelMessage[]; boundaries: HistoryBoundary[] }> => {
    const refs = [
      ...historyBlobRefs(historyState),
      ...attachments.map((attachment) => attachment.blob),
      ...appContexts.flatMap((context) => context.images ?? []),
    ];
    const files =
      request.files && refs.length
        ? { kind, limits, resolved: await resolveBlobs(refs, request.files, limits) }
        : undefined;
    const userMessage: ModelMessage = withAppContexts(
      files && attachments.length
        ? {
            role: 'user',
            content: userMessageContent(
              text,
              attachments.map((attachment) => attachment.blob),
              files,
            ),
          }
        : { role: 'user', content: text },
      appContexts,
      files,
    );
    const history = modelHistoryWithBoundaries(historyState, files);
    if (retryStep) return history;
    const retried = retry ? await runRetry(retry) : [];
    return { messages: [...history.messages, userMessage, ...retried], boundaries: history.boundaries };
  })();
  const { done, stop, steer, pause } = driveTurn({
    request,
    sessionId,
    turnId,
    outbox,
    emit,
    messages: prepared,
    historyState,
    files: { kind, limits },
    newId,
    now,
  });
  const stopAll = (commandId?: string) => {
    retryStopped.abort();
    stop(commandId);
  };
  return { turnId, stop: stopAll, steer, pause, recorded, done };
}
