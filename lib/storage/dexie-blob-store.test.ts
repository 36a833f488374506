import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { blobRefOf } from '../files/store-bytes';
import { AGENT_EVENT_SCHEMA_VERSION, type AgentEvent } from '../protocol/agent-event';
import { DexieBlobStore } from './dexie-blob-store';
import { DexieEventStore, openSplitbrainDatabase } from './dexie-event-store';

describe('DexieBlobStore', () => {
  it('stores equal bytes once, counts references, and frees them with the last session that names them', async () => {
    const database = openSplitbrainDatabase('blobs', { indexedDB: new IDBFactory(), IDBKeyRange });
    const blobs = new DexieBlobStore(database);
    const events = new DexieEventStore(database);
    const bytes = new TextEncoder().encode('hello');
    const ref = await blobRefOf(bytes, 'a.txt', { mime: 'text/plain' });
    await blobs.put({ bytes, ref, sessionId: 's1', ownerId: 'u1' });
    await blobs.put({ bytes, ref, sessionId: 's1', ownerId: 'u1' });
    await blobs.put({ bytes, ref, sessionId: 's2', ownerId: 'u2' });
    expect(await database.blobs.count()).toBe(1);
    expect(await blobs.referenceCount(ref.blobId)).toBe(2);
    expect(await blobs.read(ref.blobId)).toEqual(bytes);

    const created = (sessionId: string): AgentEvent => ({
      schemaVersion: AGENT_EVENT_SCHEMA_VERSION,
      type: 'session/created' as const,
      sessionId,
      seq: 1,
      time: 1,
      durable: true,
      data: { title: sessionId },
    });
    await events.append('s1', [created('s1')]);
    await events.append('s2', [created('s2')]);
    await events.deleteSession('s1');
    expect(await blobs.referenceCount(ref.blobId)).toBe(1);
    expect(await blobs.read(ref.blobId)).toEqual(bytes);
    await events.deleteSession('s2');
    expect(await blobs.read(ref.blobId)).toBeUndefined();
    expect(await database.blobReferences.count()).toBe(0);
  });
});
