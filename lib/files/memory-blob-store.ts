import type { BlobStore, PutBlob } from './blob-store';

interface Reference {
  blobId: string;
  sessionId: string;
  ownerId: string;
}

/** The blob store in memory, for tests and benchmarks. */
export class MemoryBlobStore implements BlobStore {
  readonly blobs = new Map<string, Uint8Array>();
  private readonly references = new Map<string, Reference>();

  async put({ bytes, ref, sessionId, ownerId }: PutBlob): Promise<void> {
    if (!this.blobs.has(ref.blobId)) this.blobs.set(ref.blobId, bytes.slice());
    this.references.set(`${ref.blobId} ${sessionId} ${ownerId}`, { blobId: ref.blobId, sessionId, ownerId });
  }

  async read(blobId: string): Promise<Uint8Array | undefined> {
    return this.blobs.get(blobId);
  }

  async referenceCount(blobId: string): Promise<number> {
    return [...this.references.values()].filter((reference) => reference.blobId === blobId).length;
  }

  async share(fromSessionId: string, toSessionId: string, blobIds: readonly string[]): Promise<void> {
    const wanted = new Set(blobIds);
    for (const reference of [...this.references.values()])
      if (reference.sessionId === fromSessionId && wanted.has(reference.blobId))
        this.references.set(`${reference.blobId} ${toSessionId} ${reference.ownerId}`, {
          ...reference,
          sessionId: toSessionId,
        });
  }

  async release(sessionId: string): Promise<void> {
    this.releaseSession(sessionId);
  }

  releaseSession(sessionId: string): void {
    for (const [key, reference] of this.references) if (reference.sessionId === sessionId) this.references.delete(key);
    const referred = new Set([...this.references.values()].map((reference) => reference.blobId));
    for (const blobId of [...this.blobs.keys()]) if (!referred.has(blobId)) this.blobs.delete(blobId);
  }
}
