import type { StoredSnapshotHead } from '../protocol/stored-snapshot';
import type { EventStore } from './event-store';
import { advanceSnapshot, touchedTurnIds, usableRows } from './snapshot-advance';

export interface SnapshotBuildOptions {
  store: EventStore;
  /** How many events one read of the log holds; the snapshot is written after each such page. */
  pageSize: number;
}

/** Where a build stands: the head written last (undefined: none yet) and whether the next write replaces all. */
interface BuildPoint {
  head: StoredSnapshotHead | undefined;
  replace: boolean;
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
  const point: BuildPoint = { head: from, replace: !from };
  let reading = store.read(sessionId, from?.snapshotSeq ?? 0, pageSize);
  for (;;) {
    const page = await reading;
    if (page.length === 0) break;
    const more = page.length === pageSize;
    if (more) reading = store.read(sessionId, page.at(-1)!.seq, pageSize);
    // Awaited below unless this page ends the build (a gap, a failed write): its failure is not unhandled then.
    reading.catch(() => undefined);
    const { head } = point;
    const touchedIds = head ? touchedTurnIds(page) : [];
    const touched = touchedIds.length ? usableRows(await snapshots.findTurns(sessionId, touchedIds), sessionId) : [];
    const next = touched && advanceSnapshot(sessionId, head && { head, rows: touched }, page);
    const written =
      next &&
      (await snapshots.write(
        next.head,
        next.rows,
        point.replace ? { replace: true } : { expectedSeq: head?.snapshotSeq ?? 0 },
      ));
    if (!written) return undefined;
    Object.assign(point, { head: next.head, replace: false });
    if (!more) break;
  }
  // An empty log (a new chat) is not worth a row; its head is kept in memory until there is a log.
  return point.head ?? advanceSnapshot(sessionId, undefined, [])?.head;
}
