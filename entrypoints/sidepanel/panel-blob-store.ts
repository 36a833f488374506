import type { BlobStore } from '@/lib/files/blob-store';

let opened: Promise<BlobStore> | undefined;

/** The database code (Dexie) loads the first time the panel reads or writes bytes, not with the panel. */
function store(): Promise<BlobStore> {
  opened ??= Promise.all([import('@/lib/storage/dexie-blob-store'), import('@/lib/storage/dexie-event-store')]).then(
    ([{ DexieBlobStore }, { openSplitbrainDatabase }]) => new DexieBlobStore(openSplitbrainDatabase()),
  );
  return opened;
}

/**
 * The panel writes attached files into the shared database itself: runtime messages are JSON, so bytes never
 * travel through them; events carry only BlobRefs. The runtime frees them when their session is deleted.
 */
export const panelBlobStore: BlobStore = {
  put: async (blob) => (await store()).put(blob),
  read: async (blobId) => (await store()).read(blobId),
  referenceCount: async (blobId) => (await store()).referenceCount(blobId),
  share: async (from, to, blobIds) => (await store()).share(from, to, blobIds),
  release: async (sessionId) => (await store()).release(sessionId),
};

export async function readBlobForPreview(blobId: string, mime: string): Promise<Blob | undefined> {
  const bytes = await panelBlobStore.read(blobId);
  return bytes ? new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mime }) : undefined;
}
