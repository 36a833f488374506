import type { AgentEvent } from '../protocol/agent-event';
import type { StoredSnapshotHead, StoredTurnRow } from '../protocol/stored-snapshot';
import type { SessionRecord } from '../protocol/session-record';
import type { EventStore, SnapshotStore } from './event-store';
import { sessionRecordAfter } from './session-record-after';

export class MemoryEventStore implements EventStore {
  private readonly events = new Map<string, AgentEvent[]>();
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly heads = new Map<string, StoredSnapshotHead>();
  private readonly turnRows = new Map<string, StoredTurnRow[]>();
  readonly snapshots: SnapshotStore = {
    readHead: async (sessionId) => structuredClone(this.heads.get(sessionId)),
    readTurns: async (sessionId, from, to) =>
      structuredClone(this.rowsOf(sessionId).filter((row) => row.position >= from && row.position < to)),
    findTurns: async (sessionId, turnIds) =>
      structuredClone(this.rowsOf(sessionId).filter((row) => turnIds.includes(row.turnId))),
    write: async (head, rows, { expectedSeq, replace }) => {
      if (expectedSeq !== undefined && (this.heads.get(head.sessionId)?.snapshotSeq ?? 0) !== expectedSeq) return false;
      const kept = replace ? [] : this.rowsOf(head.sessionId);
      const written = new Set(rows.map((row) => row.position));
      const merged = [...kept.filter((row) => !written.has(row.position)), ...structuredClone(rows)];
      this.turnRows.set(
        head.sessionId,
        merged.sort((left, right) => left.position - right.position),
      );
      this.heads.set(head.sessionId, structuredClone(head));
      return true;
    },
  };

  private rowsOf(sessionId: string): StoredTurnRow[] {
    return this.turnRows.get(sessionId) ?? [];
  }

  async lastSeq(sessionId: string): Promise<number> {
    return this.events.get(sessionId)?.at(-1)?.seq ?? 0;
  }

  async append(sessionId: string, events: AgentEvent[], batchId?: string): Promise<void> {
    const list = this.events.get(sessionId) ?? [];
    list.push(...structuredClone(events));
    this.events.set(sessionId, list);
    this.sessions.set(sessionId, sessionRecordAfter(this.sessions.get(sessionId), sessionId, events, batchId));
  }

  async lastBatchId(sessionId: string): Promise<string | undefined> {
    return this.sessions.get(sessionId)?.lastBatchId;
  }

  async read(sessionId: string, afterSeq: number, limit = Number.POSITIVE_INFINITY): Promise<AgentEvent[]> {
    return structuredClone((this.events.get(sessionId) ?? []).filter((event) => event.seq > afterSeq).slice(0, limit));
  }

  async readToolCall(sessionId: string, toolCallId: string): Promise<AgentEvent[]> {
    return structuredClone(
      (this.events.get(sessionId) ?? []).filter((event) => 'toolCallId' in event && event.toolCallId === toolCallId),
    );
  }

  async deleteSession(sessionId: string): Promise<void> {
    this.events.delete(sessionId);
    this.sessions.delete(sessionId);
    this.heads.delete(sessionId);
    this.turnRows.delete(sessionId);
  }

  async listSessions(): Promise<SessionRecord[]> {
    return [...this.sessions.values()].sort((left, right) => right.updatedAt - left.updatedAt);
  }
}
