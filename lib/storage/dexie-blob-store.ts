import Dexie, { type Table } from 'dexie';
import type { BlobStore, PutBlob } from '../files/blob-store';

export interface BlobRow {
  blobId: string;
  bytes: Uint8Array;
  mime: string;
  size: number;
  storedAt: number;
}

export interface BlobReferenceRow {
  blobId: string;
  sessionId: string;
  ownerId: string;
}

export interface BlobTables {
  blobs: Table<BlobRow, string>;
  blobReferences: Table<BlobReferenceRow, [string, string, string]>;
}

/** The tables added in database version 2 (`openSplitbrainDatabase`). */
export const BLOB_TABLE_SCHEMA = {
  blobs: 'blobId',
  blobReferences: '[blobId+sessionId+ownerId], sessionId, blobId',
};

/**
 * Frees a session's references and every blob left with none, inside the caller's transaction (the event
 * store's session delete), so that no blob outlives the last log that names it.
 */
export async function releaseSessionBlobs(tables: BlobTables, sessionId: string): Promise<void> {
  const references = await tables.blobReferences.where('sessionId').equals(sessionId).toArray();
  await tables.blobReferences.where('sessionId').equals(sessionId).delete();
  for (const blobId of new Set(references.map((reference) => reference.blobId))) {
    if ((await tables.blobReferences.where('blobId').equals(blobId).count()) === 0) await tables.blobs.delete(blobId);
  }
}

/**
 * The blob store on IndexedDB. The side panel writes it (bytes never travel in runtime messages, which are
 * JSON); the runtime frees a deleted session's blobs. Both are the extension's origin and share the database.
 */
export class DexieBlobStore implements BlobStore {
  constructor(private readonly database: Dexie & BlobTables) {}

  async put({ bytes, ref, sessionId, ownerId }: PutBlob): Promise<void> {
    const { blobs, blobReferences } = this.database;
    await this.database.transaction('rw', blobs, blobReferences, async () => {
      if ((await blobs.where('blobId').equals(ref.blobId).count()) === 0)
        await blobs.put({ blobId: ref.blobId, bytes, mime: ref.mime, size: ref.size, storedAt: Date.now() });
      await blobReferences.put({ blobId: ref.blobId, sessionId, ownerId });
    });
  }

  async read(blobId: string): Promise<Uint8Array | undefined> {
    const row = await this.database.blobs.get(blobId);
    return row ? new Uint8Array(row.bytes) : undefined;
  }

  async referenceCount(blobId: string): Promise<number> {
    return this.database.blobReferences.where('blobId').equals(blobId).count();
  }

  async share(fromSessionId: string, toSessionId: string, blobIds: readonly string[]): Promise<void> {
    const wanted = new Set(blobIds);
    const { blobReferences } = this.database;
    await this.database.transaction('rw', blobReferences, async () => {
      const held = await blobReferences.where('sessionId').equals(fromSessionId).toArray();
      const shared = held.filter((reference) => wanted.has(reference.blobId));
      await blobReferences.bulkPut(shared.map((reference) => ({ ...reference, sessionId: toSessionId })));
    });
  }

  async release(sessionId: string): Promise<void> {
    const { blobs, blobReferences } = this.database;
    await this.database.transaction('rw', blobs, blobReferences, () => releaseSessionBlobs(this.database, sessionId));
  }
}
