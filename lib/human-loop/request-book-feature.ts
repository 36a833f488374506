import type { SessionFeature } from '../session-log/session-feature';
import type { SessionProjection } from '../session-log/session-projection';
import { RequestBook } from './request-book';

/** Each session's questions, approvals, commands and turns, kept in a snapshot's book. */
export const REQUEST_BOOK: SessionProjection<RequestBook> = {
  start: (head) => (head ? RequestBook.restored(head.book) : new RequestBook()),
  project: (book, event) => book.observe(event),
  stored: (book) => book.stored(),
};

/**
 * Requests and commands of a turn that ends are settled in the same transaction, so none is left answerable;
 * a call still running here (`isRunning`) records its own outcome.
 */
export function requestBookFeature(isRunning: (sessionId: string, toolCallId: string) => boolean): SessionFeature {
  return {
    followUps: (sessionId, events, time, states) =>
      states.of(REQUEST_BOOK).followUps(sessionId, events, time, (toolCallId) => isRunning(sessionId, toolCallId)),
  };
}
