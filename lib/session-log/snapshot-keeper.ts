import type { AgentEvent } from '../protocol/agent-event';
import type { StoredSnapshotHead, StoredTurnRow } from '../protocol/stored-snapshot';
import type { EventStore, SnapshotStore } from './event-store';
import type { SnapshotBook } from './session-projection';
import { buildSnapshot } from './snapshot-build';
import { advanceSnapshot, touchedTurnIds, usableHead, usableRows } from './snapshot-advance';

export interface SnapshotKeeperOptions {
  store: EventStore;
  /** What the heads' books are made of. */
  book: SnapshotBook;
  /** A session is snapshotted again once this many durable events follow its snapshot. */
  every: number;
  /** How long after the count is reached the snapshot is written: never on the path of an append. */
  delayMs: number;
  setTimer(callback: () => void, delayMs: number): void;
  /** How many events a build from the log reads at once (BUILD_PAGE_EVENTS unless told). */
  pageSize?: number;
  /** A build writes the snapshot every this many pages (BUILD_WRITE_PAGES unless told). */
  writePages?: number;
}

/** A build holds a head, a page or two of this many events and the turns of the last few, however long the log. */
export const BUILD_PAGE_EVENTS = 2_000;
/** A worker stopped while it builds resumes from the last of these writes (every 10,000 events). */
export const BUILD_WRITE_PAGES = 5;

/** A snapshot's head with the log after it and the rows of the turns that log touches. */
export interface SnapshotTail {
  head: StoredSnapshotHead;
  tail: AgentEvent[];
  touched: StoredTurnRow[];
}

/**
 * Keeps each session's snapshot (its reduced state at `snapshotSeq`: a head and one row per turn) near the end of
 * its log, written off the hot path from what is already durable, so a snapshot is never ahead of the log and a
 * kill at any write loses nothing. A later snapshot writes only the head and the turns its events touched.
 */
export class SnapshotKeeper {
  private readonly since = new Map<string, number>();
  private readonly scheduled = new Set<string>();
  private readonly building = new Set<Promise<void>>();
  /** The last head read or written per session: the runtime is the only writer of its snapshots. */
  private readonly heads = new Map<string, StoredSnapshotHead>();
  /** The build from the log under way per session: a second caller waits for it instead of building again. */
  private readonly builds = new Map<string, Promise<StoredSnapshotHead | undefined>>();

  constructor(private readonly options: SnapshotKeeperOptions) {}

  private get rows(): SnapshotStore {
    const { snapshots } = this.options.store;
    if (!snapshots) throw new Error('This event store keeps no snapshots.');
    return snapshots;
  }

  private get pageSize(): number {
    return this.options.pageSize ?? BUILD_PAGE_EVENTS;
  }

  /**
   * The session's snapshot head, checked, for a log that ends at `lastSeq`: the stored one when the log after it
   * is at most a page, else built from the log a page at a time (from the stored one when usable, from the start
   * when none is). Called under the session's lock.
   */
  async head(sessionId: string, lastSeq: number): Promise<StoredSnapshotHead | undefined> {
    const known = this.heads.get(sessionId);
    if (known && known.snapshotSeq <= lastSeq) return known;
    const stored = usableHead(await this.rows.readHead(sessionId), sessionId, lastSeq);
    if (stored && lastSeq - stored.snapshotSeq <= this.pageSize) {
      this.heads.set(sessionId, stored);
      return stored;
    }
    return this.build(sessionId, stored);
  }

  /**
   * One build per session at a time; its head is kept once it is stored. A build that fails (a write refused
   * when the origin is out of space) leaves no snapshot: the caller reads the log itself, which is whole without it.
   */
  private build(sessionId: string, stored?: StoredSnapshotHead): Promise<StoredSnapshotHead | undefined> {
    const running = this.builds.get(sessionId);
    if (running) return running;
    const building = this.buildFrom(sessionId, stored)
      .catch(() => undefined)
      .finally(() => this.builds.delete(sessionId));
    this.builds.set(sessionId, building);
    return building;
  }

  private async buildFrom(
    sessionId: string,
    stored: StoredSnapshotHead | undefined,
  ): Promise<StoredSnapshotHead | undefined> {
    this.heads.delete(sessionId);
    const options = {
      store: this.options.store,
      book: this.options.book,
      pageSize: this.pageSize,
      writePages: this.options.writePages ?? BUILD_WRITE_PAGES,
    };
    // A stored snapshot that cannot be built on (a row unusable, a write lost a race) is built again from the start.
    const head =
      (await buildSnapshot(sessionId, stored, options)) ??
      (stored ? await buildSnapshot(sessionId, undefined, options) : undefined);
    if (head) this.heads.set(sessionId, head);
    return head;
  }

  /** The head, the log after it and the rows of the turns that log touches. Called under the session's lock. */
  async withTail(sessionId: string, lastSeq: number): Promise<SnapshotTail | undefined> {
    const head = await this.head(sessionId, lastSeq);
    if (!head) return undefined;
    const tail = await this.options.store.read(sessionId, head.snapshotSeq);
    const touchedIds = touchedTurnIds(tail);
    const touched = touchedIds.length
      ? await this.turnRows(sessionId, lastSeq, () => this.rows.findTurns(sessionId, touchedIds))
      : [];
    return touched && { head, tail, touched };
  }

  /** Turn rows, checked; a snapshot with an unusable row is rebuilt (undefined then: the caller asks again). */
  async turnRows(
    sessionId: string,
    lastSeq: number,
    read: () => Promise<unknown[]>,
  ): Promise<StoredTurnRow[] | undefined> {
    const rows = usableRows(await read(), sessionId);
    if (rows) return rows;
    await this.build(sessionId);
    return usableRows(await read(), sessionId);
  }

  /** `count` durable events were committed, or found after the snapshot on a read. */
  noted(sessionId: string, count: number): void {
    const since = (this.since.get(sessionId) ?? 0) + count;
    this.since.set(sessionId, since);
    if (since < this.options.every || this.scheduled.has(sessionId)) return;
    this.scheduled.add(sessionId);
    this.options.setTimer(() => {
      const building = this.advance(sessionId).finally(() => this.building.delete(building));
      this.building.add(building);
    }, this.options.delayMs);
  }

  /** Resolves once every snapshot being written now is written (or given up). */
  async settled(): Promise<void> {
    await Promise.all([...this.building]);
  }

  forget(sessionId: string): void {
    this.since.delete(sessionId);
    this.heads.delete(sessionId);
  }

  private async advance(sessionId: string): Promise<void> {
    this.since.set(sessionId, 0);
    try {
      const { store } = this.options;
      const last = await store.lastSeq(sessionId);
      await this.builds.get(sessionId);
      const stored = this.heads.get(sessionId) ?? usableHead(await this.rows.readHead(sessionId), sessionId, last);
      // A log far past its snapshot (or with none) is built a page at a time, never read whole.
      if (!stored || last - stored.snapshotSeq > this.pageSize) {
        await this.build(sessionId, stored);
        return;
      }
      const head = stored;
      const tail = await store.read(sessionId, head.snapshotSeq);
      if (tail.length === 0) return;
      const touchedIds = touchedTurnIds(tail);
      const touched = touchedIds.length ? usableRows(await this.rows.findTurns(sessionId, touchedIds), sessionId) : [];
      if (!touched) return;
      const next = advanceSnapshot(sessionId, { head, rows: touched }, tail, this.options.book);
      if (next && (await this.rows.write(next.head, next.rows, { expectedSeq: head.snapshotSeq })))
        this.heads.set(sessionId, next.head);
    } catch {
      // A snapshot is a cache: the log is whole without it, and the next count tries again.
    } finally {
      this.scheduled.delete(sessionId);
    }
  }
}
