import type { SessionSnapshot } from '../protocol/session-snapshot';
import { stateAfter, takeSnapshot, usableSnapshot } from '../state/session-snapshot';
import type { EventStore } from './event-store';

export interface SnapshotKeeperOptions {
  store: EventStore;
  /** A session is snapshotted again once this many durable events follow its snapshot. */
  every: number;
  /** How long after the count is reached the snapshot is written: never on the path of an append. */
  delayMs: number;
  setTimer(callback: () => void, delayMs: number): void;
}

/**
 * Keeps each session's snapshot (its reduced state at `snapshotSeq`) near the end of its log, written off the hot
 * path from what is already durable, so a snapshot is never ahead of the log and a kill at any write loses nothing.
 */
export class SnapshotKeeper {
  private readonly since = new Map<string, number>();
  private readonly scheduled = new Set<string>();
  private readonly building = new Set<Promise<void>>();

  constructor(private readonly options: SnapshotKeeperOptions) {}

  /** The stored snapshot, if this build can use it for a log that ends at `lastSeq`. */
  async read(sessionId: string, lastSeq: number): Promise<SessionSnapshot | undefined> {
    return usableSnapshot(await this.options.store.readSnapshot?.(sessionId), sessionId, lastSeq);
  }

  /** `count` durable events were committed, or found after the snapshot on a read. */
  noted(sessionId: string, count: number): void {
    const since = (this.since.get(sessionId) ?? 0) + count;
    this.since.set(sessionId, since);
    if (since < this.options.every || this.scheduled.has(sessionId)) return;
    this.scheduled.add(sessionId);
    this.options.setTimer(() => {
      const building = this.rebuild(sessionId).finally(() => this.building.delete(building));
      this.building.add(building);
    }, this.options.delayMs);
  }

  /** Resolves once every snapshot being written now is written (or given up). */
  async settled(): Promise<void> {
    await Promise.all([...this.building]);
  }

  forget(sessionId: string): void {
    this.since.delete(sessionId);
  }

  private async rebuild(sessionId: string): Promise<void> {
    this.since.set(sessionId, 0);
    try {
      const { store } = this.options;
      const last = await store.lastSeq(sessionId);
      const previous = await this.read(sessionId, last);
      const tail = await store.read(sessionId, previous?.snapshotSeq ?? 0);
      const snapshot = takeSnapshot(stateAfter(sessionId, previous, tail));
      if (snapshot && snapshot.snapshotSeq > (previous?.snapshotSeq ?? 0)) await store.writeSnapshot?.(snapshot);
    } catch {
      // A snapshot is a cache: the log is whole without it, and the next count tries again.
    } finally {
      this.scheduled.delete(sessionId);
    }
  }
}
