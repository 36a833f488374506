import type { AgentEvent } from '../protocol/agent-event';
import type { StoredSnapshotHead, StoredTurnRow } from '../protocol/stored-snapshot';
import type { SessionRecord } from '../protocol/session-record';

/** The durable log. One implementation uses Dexie (lib/storage); tests use an in-memory one. */
export interface EventStore {
  lastSeq(sessionId: string): Promise<number>;
  /** Appends durable events of one session in a single transaction and updates its session row. */
  append(sessionId: string, events: AgentEvent[], batchId?: string): Promise<void>;
  lastBatchId(sessionId: string): Promise<string | undefined>;
  /** The events after `afterSeq` in seq order; with `limit`, only the first `limit` of them (a page). */
  read(sessionId: string, afterSeq: number, limit?: number): Promise<AgentEvent[]>;
  readToolCall(sessionId: string, toolCallId: string): Promise<AgentEvent[]>;
  listSessions(): Promise<SessionRecord[]>;
  /** Removes a session's events and its session row in one transaction. */
  deleteSession(sessionId: string): Promise<void>;
  /** Snapshots, if the store keeps them; rows are returned as stored (unchecked: the reader checks their format). */
  snapshots?: SnapshotStore;
}

export interface SnapshotStore {
  readHead(sessionId: string): Promise<unknown>;
  /** The turn rows at positions `from` ≤ position < `to`, in position order. */
  readTurns(sessionId: string, from: number, to: number): Promise<unknown[]>;
  findTurns(sessionId: string, turnIds: readonly string[]): Promise<unknown[]>;
  /**
   * Puts a head and turn rows in one transaction; with `expectedSeq`, only if the stored head is still at that
   * seq, a missing head counting as 0 (false otherwise); with `replace`, the session's other rows go first.
   */
  write(
    head: StoredSnapshotHead,
    rows: readonly StoredTurnRow[],
    options: { expectedSeq?: number; replace?: boolean },
  ): Promise<boolean>;
}
