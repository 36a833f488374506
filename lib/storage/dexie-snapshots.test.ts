import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { longSessionLog } from '../../tests/support/long-session-log';
import { replayLog } from '../state/reduce-events';
import { takeSnapshot, usableSnapshot } from '../state/session-snapshot';
import { DexieEventStore, openSplitbrainDatabase } from './dexie-event-store';

describe('DexieEventStore snapshots (database version 3)', () => {
  it('stores a session snapshot that reads back usable, and deletes it with its session', async () => {
    const indexedDB = new IDBFactory();
    const store = new DexieEventStore(openSplitbrainDatabase('splitbrain-snapshot-test', { indexedDB, IDBKeyRange }));
    const log = longSessionLog('a', 3);
    await store.append('a', log);
    const snapshot = takeSnapshot(replayLog('a', log))!;
    await store.writeSnapshot(snapshot);
    expect(usableSnapshot(await store.readSnapshot('a'), 'a', log.at(-1)!.seq)).toEqual(snapshot);
    await store.deleteSession('a');
    expect(await store.readSnapshot('a')).toBeUndefined();
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
    expect(await store.readSnapshot('a')).toBeUndefined();
  });
});
