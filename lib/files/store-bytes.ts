import type { BlobRef } from '../protocol/blob-ref';
import type { BlobStore } from './blob-store';
import { inspectFileBytes } from './inspect-file-bytes';
import { sha256Hex } from './sha256-hex';

/**
 * Puts bytes into the store and returns their BlobRef, or the reason they were refused: the one call for
 * code that makes bytes itself (a screenshot, a file the model wrote). The type is sniffed, never given.
 */
export async function storeBytes(
  store: BlobStore,
  input: { bytes: Uint8Array; name: string; sessionId: string; ownerId: string },
): Promise<{ ok: true; ref: BlobRef } | { ok: false; reason: string }> {
  const inspection = await inspectFileBytes(input.bytes, input.name);
  if (!inspection.ok) return { ok: false, reason: inspection.reason };
  const ref = await blobRefOf(input.bytes, input.name, inspection);
  await store.put({ bytes: input.bytes, ref, sessionId: input.sessionId, ownerId: input.ownerId });
  return { ok: true, ref };
}

export async function blobRefOf(
  bytes: Uint8Array,
  name: string,
  measured: { mime: string; width?: number; height?: number; pages?: number },
): Promise<BlobRef> {
  const sha256 = await sha256Hex(bytes);
  return {
    blobId: sha256,
    sha256,
    mime: measured.mime,
    size: bytes.byteLength,
    name,
    ...(measured.width ? { width: measured.width } : {}),
    ...(measured.height ? { height: measured.height } : {}),
    ...(measured.pages ? { pages: measured.pages } : {}),
  };
}
