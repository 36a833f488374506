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

/**
 * One readwrite transaction: every event row added and the session row put, issued at once and committed at
 * once. Written on IndexedDB itself rather than through Dexie's transaction, which in the service worker took
 * ~4 ms per append against ~1.2 ms for these requests (tool round-trip benchmark); each tool call waits for two.
 * `record` is the session row to put, or how to make it from the stored one, then read in the same transaction.
 */
function writeRows(
  database: IDBDatabase,
  sessionId: string,
  rows: EventRow[],
  record: SessionRecord | ((previous: SessionRecord | undefined) => SessionRecord),
): Promise<SessionRecord> {
  return new Promise((resolve, reject) => {
    const transaction = database.transaction(['sessions', 'events'], 'readwrite');
    const sessions = transaction.objectStore('sessions');
    const eventStore = transaction.objectStore('events');
    let written: SessionRecord | undefined;
    const write = (row: SessionRecord) => {
      written = row;
      for (const eventRow of rows) eventStore.add(eventRow);
      sessions.put(row);
      transaction.commit();
    };
    transaction.oncomplete = () => resolve(written!);
    // IndexedDB's DOMExceptions may carry an empty message (a quota refusal does): keep the name, which says what happened.
    transaction.onabort = () =>
      reject(
        new Error(
          transaction.error
            ? `${transaction.error.name}: ${transaction.error.message || 'the write was refused'}`
            : 'The event log write was aborted.',
        ),
      );
    if (typeof record !== 'function') {
      write(record);
      return;
    }
    const reading = sessions.get(sessionId);
    reading.onsuccess = () => write(record(reading.result as SessionRecord | undefined));
  });
}

function parseRow(row: EventRow): AgentEvent {
  const parsed = agentEventSchema.safeParse(row.event);
  if (!parsed.success) {
    throw new StoredRowError(
      `Stored event ${row.sessionId}#${row.seq} is unreadable: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
    );
  }
  return parsed.data;
}

function toolCallIdOf(event: AgentEvent): string | undefined {
  return 'toolCallId' in event && event.toolCallId ? event.toolCallId : undefined;
}

/**
 * The one module that touches IndexedDB. It assumes it is the only writer of its database (the runtime in the
 * background), so it keeps in memory what it has already read or written: each session's row, and which tool
 * call ids a session has, so that a tool call the log has never seen costs no read.
 */
export class DexieEventStore implements EventStore {
  private readonly sessionRows = new Map<string, SessionRecord>();
  private readonly toolCallIds = new Map<string, { ids: Set<string>; loaded: Promise<Set<string>> }>();

  constructor(private readonly database: SplitbrainDatabase = openSplitbrainDatabase()) {}

  async lastSeq(sessionId: string): Promise<number> {
    const last = await this.database.events
      .where('[sessionId+seq]')
      .between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey])
      .last();
    return last?.seq ?? 0;
  }

  async append(sessionId: string, events: AgentEvent[], batchId?: string): Promise<void> {
    const rows: EventRow[] = events.map((event) => {
      const toolCallId = toolCallIdOf(event);
      return { sessionId, seq: event.seq, ...(toolCallId ? { toolCallId } : {}), event };
    });
    // Noted before the write: an id known too early only costs a read, an id missed could let a call run twice.
    const known = this.toolCallIds.get(sessionId)?.ids;
    for (const row of rows) if (row.toolCallId) known?.add(row.toolCallId);
    const database = await this.openBackend();
    const cached = this.sessionRows.get(sessionId);
    // Kept before the write commits, so that an append issued meanwhile builds on this one's row.
    if (cached) this.sessionRows.set(sessionId, sessionRecordAfter(cached, sessionId, events, batchId));
    try {
      const written = await writeRows(
        database,
        sessionId,
        rows,
        this.sessionRows.get(sessionId) ?? ((previous) => sessionRecordAfter(previous, sessionId, events, batchId)),
      );
      this.sessionRows.set(sessionId, written);
    } catch (error) {
      this.sessionRows.delete(sessionId);
      throw error;
    }
  }

  private async openBackend(): Promise<IDBDatabase> {
    if (!this.database.isOpen()) await this.database.open();
    return this.database.backendDB();
  }

  async lastBatchId(sessionId: string): Promise<string | undefined> {
    const row = this.sessionRows.get(sessionId) ?? (await this.database.sessions.get(sessionId));
    return row?.lastBatchId;
  }

  async read(sessionId: string, afterSeq: number): Promise<AgentEvent[]> {
    const rows = await this.database.events
      .where('[sessionId+seq]')
      .between([sessionId, afterSeq], [sessionId, Dexie.maxKey], false, true)
      .toArray();
    return rows.map(parseRow);
  }

  async readToolCall(sessionId: string, toolCallId: string): Promise<AgentEvent[]> {
    if (!(await this.knownToolCallIds(sessionId)).has(toolCallId)) return [];
    const rows = await this.database.events.where('[sessionId+toolCallId]').equals([sessionId, toolCallId]).toArray();
    return rows.sort((left, right) => left.seq - right.seq).map(parseRow);
  }

  /** Every tool call id of a session, read once (index keys only) and then kept up to date by `append`. */
  private knownToolCallIds(sessionId: string): Promise<Set<string>> {
    const known = this.toolCallIds.get(sessionId);
    if (known) return known.loaded;
    const ids = new Set<string>();
    const loaded = this.database.events
      .where('[sessionId+toolCallId]')
      .between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey])
      .keys()
      .then((keys) => {
        for (const key of keys) if (Array.isArray(key) && typeof key[1] === 'string') ids.add(key[1]);
        return ids;
      });
    const entry = { ids, loaded };
    this.toolCallIds.set(sessionId, entry);
    loaded.catch(() => {
      if (this.toolCallIds.get(sessionId) === entry) this.toolCallIds.delete(sessionId);
    });
    return loaded;
  }

  async deleteSession(sessionId: string): Promise<void> {
    await this.database.transaction('rw', this.database.sessions, this.database.events, async () => {
      await this.database.events
        .where('[sessionId+seq]')
        .between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey])
        .delete();
      await this.database.sessions.delete(sessionId);
    });
    this.sessionRows.delete(sessionId);
    this.toolCallIds.delete(sessionId);
  }

  async listSessions(): Promise<SessionRecord[]> {
    return this.database.sessions.orderBy('updatedAt').reverse().toArray();
  }
}
