import { DexieBlobStore } from '@/lib/storage/dexie-blob-store';
import { openSplitbrainDatabase } from '@/lib/storage/dexie-event-store';

/**
 * The panel writes attached files into the shared database itself: runtime messages are JSON, so bytes never
 * travel through them; events carry only BlobRefs. The runtime frees them when their session is deleted.
 */
export const panelBlobStore = new DexieBlobStore(openSplitbrainDatabase());

export async function readBlobForPreview(blobId: string, mime: string): Promise<Blob | undefined> {
  const bytes = await panelBlobStore.read(blobId);
  return bytes ? new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mime }) : undefined;
}
