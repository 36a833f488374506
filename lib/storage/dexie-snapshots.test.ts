import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { longSessionLog } from '../../tests/support/long-session-log';
import { advanceSnapshot, usableHead, usableRows } from '../session-log/snapshot-advance';
import { DexieEventStore, openSplitbrainDatabase } from './dexie-event-store';
import { TEST_SNAPSHOT_BOOK } from '../../tests/support/test-runtime';

describe('DexieEventStore snapshots (database versions 3 and 4)', () => {
  it('stores a snapshot head with a row per turn, reads a window and a turn back usable, and deletes them with the session', async () => {
    const indexedDB = new IDBFactory();
    const store = new DexieEventStore(openSplitbrainDatabase('splitbrain-snapshot-test', { indexedDB, IDBKeyRange }));
    const log = longSessionLog('a', 5);
    await store.append('a', log);
    const built = advanceSnapshot('a', undefined, log, TEST_SNAPSHOT_BOOK)!;
    expect(await store.snapshots.write(built.head, built.rows, { replace: true })).toBe(true);
    const lastSeq = log.at(-1)!.seq;
    expect(usableHead(await store.snapshots.readHead('a'), 'a', lastSeq)).toEqual(built.head);
    const window = usableRows(await store.snapshots.readTurns('a', 3, 5), 'a')!;
    expect(window.map((row) => row.turnId)).toEqual(['turn-3', 'turn-4']);
    expect(usableRows(await store.snapshots.findTurns('a', ['turn-1']), 'a')![0].position).toBe(1);
    // A head that moved on since it was read is not overwritten.
    expect(await store.snapshots.write(built.head, [], { expectedSeq: 1 })).toBe(false);
    await store.deleteSession('a');
    expect(await store.snapshots.readHead('a')).toBeUndefined();
    expect(await store.snapshots.readTurns('a', 0, 5)).toEqual([]);
  });

  it('opens a database of version 1 and keeps its log', async () => {
    const indexedDB = new IDBFactory();
    const name = 'splitbrain-upgrade-test';
    const log = longSessionLog('a', 1);
    // A version-1 database (Dexie's version 1 is IndexedDB's 10), as every build before snapshots created it.
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.open(name, 10);
      request.onupgradeneeded = () => {
        request.result.createObjectStore('sessions', { keyPath: 'sessionId' });
        request.result.createObjectStore('events', { keyPath: ['sessionId', 'seq'] });
      };
      request.onsuccess = () => {
        const transaction = request.result.transaction('events', 'readwrite');
        for (const event of log) transaction.objectStore('events').put({ sessionId: 'a', seq: event.seq, event });
        transaction.oncomplete = () => {
          request.result.close();
          resolve();
        };
      };
      request.onerror = () => reject(request.error);
    });
    const store = new DexieEventStore(openSplitbrainDatabase(name, { indexedDB, IDBKeyRange }));
    expect(await store.read('a', 0)).toHaveLength(log.length);
    expect(await store.snapshots.readHead('a')).toBeUndefined();
  });
});
