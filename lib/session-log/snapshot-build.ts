import type { StoredSnapshotHead, StoredTurnRow } from '../protocol/stored-snapshot';
import type { EventStore, SnapshotStore } from './event-store';
import type { SnapshotBook } from './session-projection';
import { advanceSnapshot, touchedTurnIds, usableRows } from './snapshot-advance';

export interface SnapshotBuildOptions {
  store: EventStore;
  /** How many events one read of the log holds. */
  pageSize: number;
  /** The snapshot is written every this many pages (and at the end): a build cut off resumes from the last one. */
  writePages: number;
  /** What the heads' books are made of. */
  book: SnapshotBook;
}

/** A build between pages: the head so far, the rows changed since the last write, and that write's seq. */
interface Build {
  sessionId: string;
  head: StoredSnapshotHead | undefined;
  unwritten: Map<string, StoredTurnRow>;
  /** The seq of the stored head the next write builds on; undefined: the next write replaces whatever is stored. */
  writtenSeq: number | undefined;
}

/** The rows of the turns a page touches: the ones changed since the last write, the rest as stored. */
async function touchedRows(build: Build, turnIds: string[], snapshots: SnapshotStore) {
  const missing = turnIds.filter((turnId) => !build.unwritten.has(turnId));
  const stored = missing.length ? usableRows(await snapshots.findTurns(build.sessionId, missing), build.sessionId) : [];
  return stored && [...turnIds.flatMap((turnId) => build.unwritten.get(turnId) ?? []), ...stored];
}

async function writeBuild(build: Build, snapshots: SnapshotStore): Promise<boolean> {
  if (!build.head) return true;
  const { writtenSeq } = build;
  const written = await snapshots.write(
    build.head,
    [...build.unwritten.values()],
    writtenSeq === undefined ? { replace: true } : { expectedSeq: writtenSeq },
  );
  build.unwritten.clear();
  build.writtenSeq = build.head.snapshotSeq;
  return written;
}

/**
 * Builds a session's snapshot from its log (or on from a stored head) a page at a time, in seq order: each page
 * is validated, reduced onto the head and the rows of the turns it touches, and dropped; the head and the rows
 * changed are written every `writePages` pages. So the worker holds one head, a page or two (the next is read
 * while one is reduced) and the turns of the last few pages, however long the log, and a build cut off resumes
 * from its last write. Undefined when the log has a gap, a stored turn row is unusable or a write lost a race.
 */
export async function buildSnapshot(
  sessionId: string,
  from: StoredSnapshotHead | undefined,
  options: SnapshotBuildOptions,
): Promise<StoredSnapshotHead | undefined> {
  const { store, pageSize, writePages, book } = options;
  const snapshots = store.snapshots;
  if (!snapshots) throw new Error('This event store keeps no snapshots.');
  const build: Build = { sessionId, head: from, unwritten: new Map(), writtenSeq: from?.snapshotSeq };
  let reading = store.read(sessionId, from?.snapshotSeq ?? 0, pageSize);
  for (let pages = 1; ; pages++) {
    const page = await reading;
    if (page.length === 0) break;
    const more = page.length === pageSize;
    if (more) reading = store.read(sessionId, page.at(-1)!.seq, pageSize);
    // Awaited below unless this page ends the build (a gap, a failed write): its failure is not unhandled then.
    reading.catch(() => undefined);
    const { head } = build;
    const touched = head ? await touchedRows(build, touchedTurnIds(page), snapshots) : [];
    const next = touched && advanceSnapshot(sessionId, head && { head, rows: touched }, page, book);
    if (!next) return undefined;
    build.head = next.head;
    for (const row of next.rows) build.unwritten.set(row.turnId, row);
    if (!more) break;
    if (pages % writePages === 0 && !(await writeBuild(build, snapshots))) return undefined;
  }
  if (build.writtenSeq !== build.head?.snapshotSeq && !(await writeBuild(build, snapshots))) return undefined;
  // An empty log (a new chat) is not worth a row; its head is kept in memory until there is a log.
  return build.head ?? advanceSnapshot(sessionId, undefined, [], book)?.head;
}
