import type { AgentEvent } from '../protocol/agent-event';
import type { StoredPendingRewind } from '../protocol/stored-snapshot';
import type { SessionProjection } from '../session-log/session-projection';

/**
 * The rewinds of a session whose effects outside the log (a shown target reloaded, values put on the stage or
 * saved) are not recorded as done: a `rewind/applied` with a `rewindId`, values or versions, and no
 * `rewind/completed` after it. A rewind of the conversation alone has nothing to complete.
 */
export class RewindBook {
  private readonly pending = new Map<string, StoredPendingRewind>();

  static restored(stored: readonly StoredPendingRewind[]): RewindBook {
    const book = new RewindBook();
    for (const rewind of structuredClone(stored)) book.pending.set(rewind.rewindId, rewind);
    return book;
  }

  stored(): StoredPendingRewind[] {
    return structuredClone([...this.pending.values()]);
  }

  /** The pending rewinds, oldest first. */
  all(): StoredPendingRewind[] {
    return [...this.pending.values()].sort((left, right) => left.seq - right.seq);
  }

  get(rewindId: string): StoredPendingRewind | undefined {
    return this.pending.get(rewindId);
  }

  observe(event: AgentEvent): void {
    if (event.type === 'rewind/completed') this.pending.delete(event.data.rewindId);
    else if (
      event.type === 'rewind/applied' &&
      event.data.rewindId !== undefined &&
      (event.data.values.length > 0 || event.data.versions.length > 0)
    )
      this.pending.set(event.data.rewindId, {
        rewindId: event.data.rewindId,
        seq: event.seq,
        time: event.time,
        values: event.data.values,
        reload: event.data.versions.map((version) => version.artifactId),
      });
  }
}

/** Each session's pending rewinds, kept in a snapshot's book so that a session opens knowing them. */
export const REWIND_BOOK: SessionProjection<RewindBook> = {
  start: (head) => (head ? RewindBook.restored(head.book.rewinds) : new RewindBook()),
  project: (book, event) => book.observe(event),
  stored: (book) => ({ rewinds: book.stored() }),
};
