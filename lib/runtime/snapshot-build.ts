import type { AgentEvent } from '../protocol/agent-event';
import type { StoredSnapshotHead, StoredTurnRow } from '../protocol/stored-snapshot';
import { initialClientState } from '../state/client-state';
import { reduceInto } from '../state/reduce-events';
import { WorkingCopy } from '../state/working-copy';
import type { EventStore, SnapshotStore } from './event-store';
import { observeLedgers, restoredLedgers, type RuntimeLedgers } from './runtime-ledgers';
import { snapshotHead, snapshotRows, stateOfRows, type SnapshotParts } from './snapshot-advance';

export interface SnapshotBuildOptions {
  store: EventStore;
  /** How many events one read of the log holds: the build keeps the state and a page or two, never the whole log. */
  pageSize: number;
  /** The snapshot built so far is written every this many pages, so that a build cut off resumes from there. */
  checkpointPages: number;
}

/** What a build holds between pages: the reduced state with every turn, and the runtime's book. */
interface BuildState {
  sessionId: string;
  /** The state, reduced in place: no earlier state of a build is kept, so its tables are copied once, not per page. */
  copy: WorkingCopy;
  ledgers: RuntimeLedgers;
  /** Turns changed since the snapshot was last written; every turn until the first write replaces the stored one. */
  changed: Set<string>;
  /** The seq of the stored head the next write builds on; undefined: the next write replaces whatever is stored. */
  writtenSeq: number | undefined;
}

function startingState(sessionId: string, from: SnapshotParts | undefined): BuildState {
  return {
    sessionId,
    copy: new WorkingCopy(from ? stateOfRows(from.head, from.rows) : initialClientState(sessionId)),
    ledgers: restoredLedgers(from?.head),
    changed: new Set(),
    writtenSeq: from?.head.snapshotSeq,
  };
}

function reducePage(build: BuildState, page: readonly AgentEvent[]): boolean {
  if (reduceInto(build.copy, page).pending.length > 0) return false;
  for (const event of page) {
    observeLedgers(build.ledgers, event);
    if ('turnId' in event && event.turnId) build.changed.add(event.turnId);
  }
  return true;
}

/** Writes the head and the turns changed since the last write; a write that lost a race makes the next one whole. */
async function writeBuilt(build: BuildState, snapshots: SnapshotStore): Promise<StoredSnapshotHead> {
  const { sessionId } = build;
  const state = build.copy.state;
  const head = snapshotHead(sessionId, state, build.ledgers);
  const expectedSeq = build.writtenSeq;
  const rows: StoredTurnRow[] = snapshotRows(
    sessionId,
    state,
    expectedSeq === undefined ? state.turnOrder : [...build.changed],
  );
  build.writtenSeq = undefined;
  const written = await snapshots.write(head, rows, expectedSeq === undefined ? { replace: true } : { expectedSeq });
  if (written) build.writtenSeq = head.snapshotSeq;
  build.changed.clear();
  return head;
}

/** A checkpoint is a cache of a cache: one that fails only makes the next write whole. */
async function checkpoint(build: BuildState, snapshots: SnapshotStore): Promise<void> {
  try {
    await writeBuilt(build, snapshots);
  } catch {
    build.writtenSeq = undefined;
  }
}

/**
 * Builds a session's snapshot from its log (or from a stored snapshot, with all its turn rows, and the log after
 * it) a page at a time, in seq order: each page is validated, reduced into the state and dropped, and the snapshot
 * is written every `checkpointPages` pages and at the end, so the build holds the state and a page or two (the
 * next is read while one is reduced), never the whole log. Undefined when the log has a gap (nothing more is written then).
 */
export async function buildSnapshot(
  sessionId: string,
  from: SnapshotParts | undefined,
  options: SnapshotBuildOptions,
): Promise<StoredSnapshotHead | undefined> {
  const { store, pageSize, checkpointPages } = options;
  const snapshots = store.snapshots;
  if (!snapshots) throw new Error('This event store keeps no snapshots.');
  const build = startingState(sessionId, from);
  let pages = 0;
  let reading = store.read(sessionId, build.copy.state.lastSeq, pageSize);
  for (;;) {
    const page = await reading;
    if (page.length === 0) break;
    const more = page.length === pageSize;
    // The next page is read while this one is reduced (and checkpointed): two pages at most are held.
    if (more) reading = store.read(sessionId, page.at(-1)!.seq, pageSize);
    if (!reducePage(build, page)) {
      reading.catch(() => undefined);
      return undefined;
    }
    pages += 1;
    if (!more) break;
    if (pages % checkpointPages === 0) await checkpoint(build, snapshots);
  }
  // An empty log (a new chat) is not worth a row; its head is kept in memory until there is a log.
  if (build.copy.state.lastSeq === 0) return snapshotHead(sessionId, build.copy.state, build.ledgers);
  if (from && pages === 0) return from.head;
  const head = await writeBuilt(build, snapshots);
  // The stored rows must be this head's: a conditional write that lost a race is made again whole.
  return build.writtenSeq === undefined ? writeBuilt(build, snapshots) : head;
}
