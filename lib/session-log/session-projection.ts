import type { AgentEvent } from '../protocol/agent-event';
import type { RuntimeBook, StoredSnapshotHead } from '../protocol/stored-snapshot';

/**
 * What one feature keeps of each loaded session, rebuilt from its log: from a snapshot's head and the log after
 * it, or from the log's start. The log hands every committed event to every projection, in registration order.
 */
export interface SessionProjection<TState> {
  /** The state before the first event after `head` (empty without one). */
  start(head: StoredSnapshotHead | undefined): TState;
  project(state: TState, event: AgentEvent): void;
  /** Its part of a snapshot head's book; none when `start` rebuilds the state from the head's reduced state. */
  stored?(state: TState): Partial<RuntimeBook>;
}

/** The projections a snapshot head's book is made of, in the order their parts are written. */
export type SnapshotBook = readonly SessionProjection<unknown>[];

/** A loaded session's projections, read by the projection that names them. */
export interface SessionStates {
  of<TState>(projection: SessionProjection<TState>): TState;
}

/** The book after `tail`, from the one `head` keeps (or from nothing). */
export function bookAfter(
  book: SnapshotBook,
  head: StoredSnapshotHead | undefined,
  tail: readonly AgentEvent[],
): RuntimeBook {
  const parts = book.flatMap((projection) => {
    if (!projection.stored) return [];
    const state = projection.start(head);
    for (const event of tail) projection.project(state, event);
    return [projection.stored(state)];
  });
  // Each part is checked against the book's schema when the head is read back (usableHead).
  return Object.assign({}, ...parts) as RuntimeBook;
}
