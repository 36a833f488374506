import type { BlobRef } from '../protocol/blob-ref';

export interface PutBlob {
  bytes: Uint8Array;
  ref: BlobRef;
  sessionId: string;
  /** What refers to the bytes inside the session (an upload, a tool call): one reference per owner. */
  ownerId: string;
}

/**
 * Bytes keyed by their sha256, written once per content, with one reference per (session, owner). A session's
 * deletion frees the blobs nothing else refers to (the event store does it in the same transaction).
 */
export interface BlobStore {
  /** Idempotent: the same bytes and owner again change nothing. */
  put(blob: PutBlob): Promise<void>;
  /** The bytes, or undefined when they are gone (deleted, or never here: a BlobRef from an imported log). */
  read(blobId: string): Promise<Uint8Array | undefined>;
  /** How many references (session, owner) the blob has. */
  referenceCount(blobId: string): Promise<number>;
  /**
   * Gives `toSessionId` the references `fromSessionId` holds on these blobs (same owners), so that a fork keeps
   * them alive after its original is deleted; the bytes are not copied. A blob the session holds none of is skipped.
   */
  share(fromSessionId: string, toSessionId: string, blobIds: readonly string[]): Promise<void>;
  /** Drops every reference the session holds, and the blobs left with none (an import's staged files). */
  release(sessionId: string): Promise<void>;
}
