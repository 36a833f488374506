import type { AgentEvent } from '../protocol/agent-event';
import type { StoredSnapshotHead, StoredTurnRow } from '../protocol/stored-snapshot';
import type { EventStore, SnapshotStore } from './event-store';
import { advanceSnapshot, touchedTurnIds, usableHead, usableRows } from './snapshot-advance';

export interface SnapshotKeeperOptions {
  store: EventStore;
  /** A session is snapshotted again once this many durable events follow its snapshot. */
  every: number;
  /** How long after the count is reached the snapshot is written: never on the path of an append. */
  delayMs: number;
  setTimer(callback: () => void, delayMs: number): void;
}

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

  constructor(private readonly options: SnapshotKeeperOptions) {}

  private get rows(): SnapshotStore {
    const { snapshots } = this.options.store;
    if (!snapshots) throw new Error('This event store keeps no snapshots.');
    return snapshots;
  }

  /**
   * The session's snapshot head, checked, for a log that ends at `lastSeq`; built from the whole log (once) when
   * none stored is usable. Called under the session's lock.
   */
  async head(sessionId: string, lastSeq: number): Promise<StoredSnapshotHead | undefined> {
    const known = this.heads.get(sessionId);
    if (known && known.snapshotSeq <= lastSeq) return known;
    const stored = usableHead(await this.rows.readHead(sessionId), sessionId, lastSeq);
    if (stored) {
      this.heads.set(sessionId, stored);
      return stored;
    }
    return this.rebuildAll(sessionId, lastSeq);
  }

  private async rebuildAll(sessionId: string, lastSeq: number): Promise<StoredSnapshotHead | undefined> {
    const built = advanceSnapshot(sessionId, undefined, await this.options.store.read(sessionId, 0));
    if (!built) return undefined;
    // An empty log (a new chat) is not worth a row; its head is kept in memory until there is a log.
    if (lastSeq > 0) await this.rows.write(built.head, built.rows, { replace: true });
    this.heads.set(sessionId, built.head);
    return built.head;
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
    this.heads.delete(sessionId);
    await this.rebuildAll(sessionId, lastSeq);
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
      const head = this.heads.get(sessionId) ?? usableHead(await this.rows.readHead(sessionId), sessionId, last);
      const tail = await store.read(sessionId, head?.snapshotSeq ?? 0);
      if (tail.length === 0) return;
      const touchedIds = touchedTurnIds(tail);
      const touched =
        head && touchedIds.length ? usableRows(await this.rows.findTurns(sessionId, touchedIds), sessionId) : [];
      if (!touched) return;
      const next = advanceSnapshot(sessionId, head && { head, rows: touched }, tail);
      if (next && (await this.rows.write(next.head, next.rows, { expectedSeq: head?.snapshotSeq ?? 0 })))
        this.heads.set(sessionId, next.head);
    } catch {
      // A snapshot is a cache: the log is whole without it, and the next count tries again.
    } finally {
      this.scheduled.delete(sessionId);
    }
  }
}
