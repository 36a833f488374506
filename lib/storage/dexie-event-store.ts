import Dexie, { type DexieOptions, type EntityTable, type Table } from 'dexie';
import { agentEventSchema, type AgentEvent } from '../protocol/agent-event';
import type { EventStore, SessionRecord } from '../runtime/event-store';
import { sessionRecordAfter } from '../runtime/session-record';

interface EventRow {
  sessionId: string;
  seq: number;
  toolCallId?: string;
  event: unknown;
}

type SplitbrainDatabase = Dexie & {
  sessions: EntityTable<SessionRecord, 'sessionId'>;
  events: Table<EventRow, [string, number]>;
};

/** `options` lets tests hand in another IndexedDB implementation (`indexedDB`, `IDBKeyRange`). */
export function openSplitbrainDatabase(name = 'splitbrain', options?: DexieOptions): SplitbrainDatabase {
  const database = new Dexie(name, options) as SplitbrainDatabase;
  database.version(1).stores({
    sessions: 'sessionId, updatedAt',
    events: '[sessionId+seq], [sessionId+toolCallId]',
  });
  return database;
}

export class StoredRowError extends Error {}

function parseRow(row: EventRow): AgentEvent {
  const parsed = agentEventSchema.safeParse(row.event);
  if (!parsed.success) {
    throw new StoredRowError(`Stored event ${row.sessionId}#${row.seq} is unreadable: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** The one module that touches IndexedDB. */
export class DexieEventStore implements EventStore {
  constructor(private readonly database: SplitbrainDatabase = openSplitbrainDatabase()) {}

  async lastSeq(sessionId: string): Promise<number> {
    const last = await this.database.events
      .where('[sessionId+seq]')
      .between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey])
      .last();
    return last?.seq ?? 0;
  }

  async append(sessionId: string, events: AgentEvent[], batchId?: string): Promise<void> {
    const rows: EventRow[] = events.map((event) => ({
      sessionId,
      seq: event.seq,
      ...('toolCallId' in event && event.toolCallId ? { toolCallId: event.toolCallId } : {}),
      event,
    }));
    await this.database.transaction('rw', this.database.sessions, this.database.events, async () => {
      const previous = await this.database.sessions.get(sessionId);
      await this.database.events.bulkAdd(rows);
      await this.database.sessions.put(sessionRecordAfter(previous, sessionId, events, batchId));
    });
  }

  async lastBatchId(sessionId: string): Promise<string | undefined> {
    return (await this.database.sessions.get(sessionId))?.lastBatchId;
  }

  async read(sessionId: string, afterSeq: number): Promise<AgentEvent[]> {
    const rows = await this.database.events
      .where('[sessionId+seq]')
      .between([sessionId, afterSeq], [sessionId, Dexie.maxKey], false, true)
      .toArray();
    return rows.map(parseRow);
  }

  async readToolCall(sessionId: string, toolCallId: string): Promise<AgentEvent[]> {
    const rows = await this.database.events.where('[sessionId+toolCallId]').equals([sessionId, toolCallId]).toArray();
    return rows.sort((left, right) => left.seq - right.seq).map(parseRow);
  }

  async deleteSession(sessionId: string): Promise<void> {
    await this.database.transaction('rw', this.database.sessions, this.database.events, async () => {
      await this.database.events.where('[sessionId+seq]').between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey]).delete();
      await this.database.sessions.delete(sessionId);
    });
  }

  async listSessions(): Promise<SessionRecord[]> {
    return this.database.sessions.orderBy('updatedAt').reverse().toArray();
  }
}
