import type { ModelMessage } from 'ai';
import { ENDPOINT_FILE_LIMITS, fileEndpointKind } from '../files/file-limits';
import { resolveBlobs } from '../files/model-file-content';
import { describeWriteFailure } from './describe-write-failure';
import { driveTurn } from './drive-turn';
import { EventOutbox } from './event-outbox';
import { historyBlobRefs, modelHistoryWithBoundaries } from './model-history';
import type { HistoryBoundary } from '../context/history-cut';
import { resumeMessage } from './resume-message';
import type { TurnHandle, TurnRequest } from './turn-driver';

export type ResumeRequest = Omit<TurnRequest, 'text' | 'retryOf' | 'overBudget' | 'attachments'> & {
  /** The paused turn of `state` to go on with. */
  turnId: string;
  /** The conversation uses the page: the runtime observes it afresh for the model. */
  observe: boolean;
};

/**
 * Goes on with a paused turn in this document: the runtime records the resume (with a fresh observation of the page
 * when the conversation uses it), and the model's next request is the history, the note and the steers queued since.
 */
export function resumeTurn(request: ResumeRequest): TurnHandle {
  const { client, settings, state, turnId } = request;
  const newId = request.newId ?? (() => crypto.randomUUID());
  const now = request.now ?? (() => Date.now());
  const sessionId = state.sessionId;
  const resume = client.resumeTurn;
  if (!resume) throw new Error('This runtime cannot resume a turn.');
  const outbox = new EventOutbox(async (drafts) => {
    try {
      await client.appendEvents(sessionId, drafts);
    } catch (error) {
      throw new Error(describeWriteFailure(error));
    }
  });
  const kind = fileEndpointKind(settings);
  const limits = ENDPOINT_FILE_LIMITS[kind];
  client.ownTurn(sessionId, turnId);
  const recorded = resume({ sessionId, turnId, commandId: newId(), observe: request.observe }).then((answer) => {
    if (answer.state !== 'applied')
      throw new Error(`This turn is no longer paused (${answer.turnStatus ?? answer.state}).`);
    return answer;
  });
  const messages = recorded.then(
    async (answer): Promise<{ messages: ModelMessage[]; boundaries: HistoryBoundary[] }> => {
      const refs = historyBlobRefs(state);
      const files =
        request.files && refs.length
          ? { kind, limits, resolved: await resolveBlobs(refs, request.files, limits) }
          : undefined;
      const steers = await client.takeSteers(sessionId, turnId).catch(() => []);
      const history = modelHistoryWithBoundaries(state, files);
      return {
        messages: [
          ...history.messages,
          resumeMessage(answer.note ?? '', answer.observation),
          ...steers.map((steer) => ({ role: 'user' as const, content: steer.text })),
        ],
        boundaries: history.boundaries,
      };
    },
  );
  const driven = driveTurn({
    request,
    sessionId,
    turnId,
    outbox,
    emit: (drafts) => outbox.emit(drafts),
    messages,
    historyState: state,
    files: { kind, limits },
    newId,
    now,
  });
  const done = recorded.then(() => driven.done);
  done.catch(() => undefined);
  return {
    turnId,
    stop: driven.stop,
    steer: driven.steer,
    pause: driven.pause,
    recorded: recorded.then(() => undefined),
    done,
  };
}
