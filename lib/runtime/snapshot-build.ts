import type { StoredSnapshotHead } from '../protocol/stored-snapshot';
import type { EventStore } from './event-store';
import { advanceSnapshot, touchedTurnIds, usableRows } from './snapshot-advance';

export interface SnapshotBuildOptions {
  store: EventStore;
  /** How many events one read of the log holds; the snapshot is written after each such page. */
  pageSize: number;
}

/**
 * Builds a session's snapshot from its log (or on from a stored head) a page at a time, in seq order: each page
 * is validated, reduced onto the head and the rows of the turns it touches, written, and dropped. So the worker
 * holds one head, a page or two (the next is read while one is reduced) and the turns they touch, however long
 * the log; and every page is a checkpoint, so a build cut off resumes from the last one. Undefined when the log
 * has a gap or a stored turn row is unusable (nothing more is written then).
 */
export async function buildSnapshot(
  sessionId: string,
  from: StoredSnapshotHead | undefined,
  options: SnapshotBuildOptions,
): Promise<StoredSnapshotHead | undefined> {
  const { store, pageSize } = options;
  const snapshots = store.snapshots;
  if (!snapshots) throw new Error('This event store keeps no snapshots.');
  // The head written last (the one built on), and whether the next write replaces whatever is stored.
  let head = from;
  let replace = !from;
  let reading = store.read(sessionId, from?.snapshotSeq ?? 0, pageSize);
  for (;;) {
    const page = await reading;
    if (page.length === 0) break;
    const more = page.length === pageSize;
    if (more) reading = store.read(sessionId, page.at(-1)!.seq, pageSize);
    // Awaited below unless this page ends the build (a gap, a failed write): its failure is not unhandled then.
    reading.catch(() => undefined);
    const touchedIds = head ? touchedTurnIds(page) : [];
    const touched = touchedIds.length ? usableRows(await snapshots.findTurns(sessionId, touchedIds), sessionId) : [];
    const next = touched && advanceSnapshot(sessionId, head && { head, rows: touched }, page);
    const written =
      next &&
      (await snapshots.write(
        next.head,
        next.rows,
        replace ? { replace: true } : { expectedSeq: head?.snapshotSeq ?? 0 },
      ));
    if (!written) return undefined;
    head = next.head;
    replace = false;
    if (!more) break;
  }
  // An empty log (a new chat) is not worth a row; its head is kept in memory until there is a log.
  return head ?? advanceSnapshot(sessionId, undefined, [])?.head;
}
