import Dexie, { type DexieOptions, type EntityTable, type Table } from 'dexie';
import type { AgentEvent } from '../protocol/agent-event';
import type { StoredSnapshotHead, StoredTurnRow } from '../protocol/stored-snapshot';
import { readStoredEvent } from '../protocol/event-migrations';
import type { SessionRecord } from '../protocol/session-record';
import type { EventStore, SnapshotStore } from '../session-log/event-store';
import { sessionRecordAfter } from '../session-log/session-record-after';
import { BLOB_TABLE_SCHEMA, releaseSessionBlobs, type BlobTables } from './dexie-blob-store';
import type { SearchShardRow } from '../protocol/search-shard-row';

interface EventRow {
  sessionId: string;
  seq: number;
  toolCallId?: string;
  event: unknown;
}

export type SplitbrainDatabase = Dexie &
  BlobTables & {
    sessions: EntityTable<SessionRecord, 'sessionId'>;
    events: Table<EventRow, [string, number]>;
    snapshots: EntityTable<StoredSnapshotHead, 'sessionId'>;
    snapshotTurns: Table<StoredTurnRow, [string, number]>;
    searchShards: EntityTable<SearchShardRow, 'sessionId'>;
  };

/** `options` lets tests hand in another IndexedDB implementation (`indexedDB`, `IDBKeyRange`). */
export function openSplitbrainDatabase(name = 'splitbrain', options?: DexieOptions): SplitbrainDatabase {
  const database = new Dexie(name, options) as SplitbrainDatabase;
  database.version(1).stores({
    sessions: 'sessionId, updatedAt',
    events: '[sessionId+seq], [sessionId+toolCallId]',
  });
  database.version(2).stores(BLOB_TABLE_SCHEMA);
  // Snapshots are a cache of the reduced log: an older build that cannot open version 3 is the price of keeping
  // them beside the log, and a snapshot of another format is never read.
  database.version(3).stores({ snapshots: 'sessionId' });
  // A snapshot's turns, one row each, so that opening reads the last few and a page reads its own.
  database.version(4).stores({ snapshotTurns: '[sessionId+position], [sessionId+turnId]' });
  // The search index, one row per conversation: derived from the log, rebuilt from it when missing.
  database.version(5).stores({ searchShards: 'sessionId' });
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

/** A row read as an older schema version: the upgraded event to write back in place of the stored one. */
interface UpgradedRow {
  row: EventRow;
  fromVersion: number;
}

/** A row newer than this code, or broken, fails the whole read: a log read in part could let a call run twice. */
function parseRows(rows: EventRow[]): { events: AgentEvent[]; upgraded: UpgradedRow[] } {
  const upgraded: UpgradedRow[] = [];
  const events = rows.map((row) => {
    const reading = readStoredEvent(row.event);
    if (!reading.ok)
      throw new StoredRowError(`Stored event ${row.sessionId}#${row.seq} is unreadable: ${reading.reason}.`);
    if (reading.upgradedFrom !== undefined)
      upgraded.push({ row: { ...row, event: reading.event }, fromVersion: reading.upgradedFrom });
    return reading.event;
  });
  return { events, upgraded };
}

/**
 * Writes upgraded rows back over the stored ones in one transaction of their own, each only if the stored row
 * is still there with the version it was read at (a session deleted meanwhile stays deleted).
 */
function writeBackUpgrades(database: IDBDatabase, upgraded: UpgradedRow[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const transaction = database.transaction('events', 'readwrite');
    const eventStore = transaction.objectStore('events');
    for (const { row, fromVersion } of upgraded) {
      const reading = eventStore.get([row.sessionId, row.seq]);
      reading.onsuccess = () => {
        const stored = reading.result as EventRow | undefined;
        if ((stored?.event as { schemaVersion?: unknown } | undefined)?.schemaVersion === fromVersion)
          eventStore.put(row);
      };
    }
    transaction.oncomplete = () => resolve();
    transaction.onabort = () => reject(transaction.error ?? new Error('The upgrade write was aborted.'));
  });
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
  private upgrading: Promise<void> = Promise.resolve();

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

  async read(sessionId: string, afterSeq: number, limit?: number): Promise<AgentEvent[]> {
    const range = this.database.events
      .where('[sessionId+seq]')
      .between([sessionId, afterSeq], [sessionId, Dexie.maxKey], false, true);
    const rows = await (limit === undefined ? range : range.limit(limit)).toArray();
    return this.parsed(rows);
  }

  async readToolCall(sessionId: string, toolCallId: string): Promise<AgentEvent[]> {
    if (!(await this.knownToolCallIds(sessionId)).has(toolCallId)) return [];
    const rows = await this.database.events.where('[sessionId+toolCallId]').equals([sessionId, toolCallId]).toArray();
    return this.parsed(rows.sort((left, right) => left.seq - right.seq));
  }

  /**
   * Migration is lazy, on read: rows of an older schema version are upgraded in memory and written back in
   * the new form, in their own transaction that the read does not wait for. Not in Dexie's version upgrade on
   * open: that would rewrite every session's history before the worker's first answer after an update, and
   * raise the database version, so that an older build could not open the log at all instead of refusing
   * only the rows it cannot read. A failed write-back costs nothing: the row is upgraded again on its next read.
   */
  private parsed(rows: EventRow[]): AgentEvent[] {
    const { events, upgraded } = parseRows(rows);
    if (upgraded.length > 0) this.upgrading = this.writeBack(upgraded);
    return events;
  }

  private async writeBack(upgraded: UpgradedRow[]): Promise<void> {
    await this.upgrading;
    try {
      await writeBackUpgrades(await this.openBackend(), upgraded);
    } catch (error) {
      console.warn('Could not store upgraded events; they are upgraded again when next read.', error);
    }
  }

  /** Resolves once every upgrade started by a read so far is stored (or given up). */
  upgradesStored(): Promise<void> {
    return this.upgrading;
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
    const { sessions, events, snapshots, snapshotTurns, searchShards, blobs, blobReferences } = this.database;
    const tables = [sessions, events, snapshots, snapshotTurns, searchShards, blobs, blobReferences];
    await this.database.transaction('rw', tables, async () => {
      await releaseSessionBlobs(this.database, sessionId);
      await this.database.events
        .where('[sessionId+seq]')
        .between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey])
        .delete();
      await this.database.sessions.delete(sessionId);
      await this.database.snapshots.delete(sessionId);
      await this.turnRowsOf(sessionId).delete();
      // What a deleted conversation said must not stay behind in its search index.
      await this.database.searchShards.delete(sessionId);
    });
    this.sessionRows.delete(sessionId);
    this.toolCallIds.delete(sessionId);
  }

  private turnRowsOf(sessionId: string, from = 0, to = Number.POSITIVE_INFINITY) {
    return this.database.snapshotTurns.where('[sessionId+position]').between([sessionId, from], [sessionId, to]);
  }

  readonly snapshots: SnapshotStore = {
    readHead: (sessionId) => this.database.snapshots.get(sessionId),
    readTurns: (sessionId, from, to) => this.turnRowsOf(sessionId, from, to).toArray(),
    findTurns: (sessionId, turnIds) =>
      this.database.snapshotTurns
        .where('[sessionId+turnId]')
        .anyOf(turnIds.map((turnId) => [sessionId, turnId]))
        .toArray(),
    write: (head, rows, { expectedSeq, replace }) => {
      const { snapshots, snapshotTurns } = this.database;
      return this.database.transaction('rw', [snapshots, snapshotTurns], async () => {
        if (expectedSeq !== undefined && ((await snapshots.get(head.sessionId))?.snapshotSeq ?? 0) !== expectedSeq)
          return false;
        if (replace) await this.turnRowsOf(head.sessionId).delete();
        await snapshotTurns.bulkPut([...rows]);
        await snapshots.put(head);
        return true;
      });
    },
  };

  async listSessions(): Promise<SessionRecord[]> {
    return this.database.sessions.orderBy('updatedAt').reverse().toArray();
  }
}
