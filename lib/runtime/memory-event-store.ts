import type { AgentEvent } from '../protocol/agent-event';
import type { SessionSnapshot } from '../protocol/session-snapshot';
import type { EventStore, SessionRecord } from './event-store';
import { sessionRecordAfter } from './session-record';

export class MemoryEventStore implements EventStore {
  private readonly events = new Map<string, AgentEvent[]>();
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly snapshots = new Map<string, SessionSnapshot>();

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

  async read(sessionId: string, afterSeq: number): Promise<AgentEvent[]> {
    return structuredClone((this.events.get(sessionId) ?? []).filter((event) => event.seq > afterSeq));
  }

  async readToolCall(sessionId: string, toolCallId: string): Promise<AgentEvent[]> {
    return structuredClone(
      (this.events.get(sessionId) ?? []).filter((event) => 'toolCallId' in event && event.toolCallId === toolCallId),
    );
  }

  async deleteSession(sessionId: string): Promise<void> {
    this.events.delete(sessionId);
    this.sessions.delete(sessionId);
    this.snapshots.delete(sessionId);
  }

  async readSnapshot(sessionId: string): Promise<unknown> {
    return structuredClone(this.snapshots.get(sessionId));
  }

  async writeSnapshot(snapshot: SessionSnapshot): Promise<void> {
    this.snapshots.set(snapshot.sessionId, structuredClone(snapshot));
  }

  async listSessions(): Promise<SessionRecord[]> {
    return [...this.sessions.values()].sort((left, right) => right.updatedAt - left.updatedAt);
  }
}
