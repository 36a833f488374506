import type { BlobStore } from '../files/blob-store';
import { sha256Hex } from '../files/sha256-hex';
import type { SessionArchiveReading } from './read-session-archive';

type ReadArchive = Extract<SessionArchiveReading, { ok: true }>;

/** The owner of every staged reference: the runtime moves them to the imported conversation, then frees these. */
const STAGING_OWNER = 'import';

/** The staged import: where its files wait, and the id of its `conversation.json`. */
export interface StagedImport {
  stagingId: string;
  documentBlobId: string;
}

/**
 * Writes an import's files, and its `conversation.json`, into the blob store under a staging id that no
 * conversation has: bytes never travel in runtime messages, and nothing is visible until the runtime commits the
 * log (`session/import`), which frees the staging references whatever happens. A file a JSON-only export left
 * out that this browser still has is staged too, so that it is not missing after all.
 */
export async function stageSessionImport(
  reading: ReadArchive,
  store: BlobStore,
  stagingId: string,
): Promise<StagedImport> {
  const stage = (blobId: string, mime: string, bytes: Uint8Array, name: string) =>
    store.put({
      bytes,
      ref: { blobId, sha256: blobId, mime, size: bytes.length, name },
      sessionId: stagingId,
      ownerId: STAGING_OWNER,
    });
  for (const file of reading.files) await stage(file.blobId, file.mime, file.bytes, '');
  for (const blobId of reading.missingBlobIds) {
    const here = await store.read(blobId);
    if (here && (await sha256Hex(here)) === blobId) await stage(blobId, 'application/octet-stream', here, '');
  }
  const documentBlobId = await sha256Hex(reading.documentBytes);
  await stage(documentBlobId, 'application/json', reading.documentBytes, 'conversation.json');
  return { stagingId, documentBlobId };
}
