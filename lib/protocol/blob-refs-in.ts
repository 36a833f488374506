const SHA256_HEX = /^[0-9a-f]{64}$/;

/** A blob a value names: its id (the sha256 of its bytes) and, when the object naming it says, its MIME type. */
export interface NamedBlob {
  blobId: string;
  mime?: string;
}

/**
 * Every blob the value names at any depth (a `blobId` key holding a sha256, as BlobRefs and `blob/referenced`
 * events do), once per blobId, in the order first met.
 */
export function blobsNamedIn(value: unknown): NamedBlob[] {
  const found = new Map<string, NamedBlob>();
  const visit = (each: unknown): void => {
    if (Array.isArray(each)) {
      for (const entry of each) visit(entry);
      return;
    }
    if (!each || typeof each !== 'object') return;
    const { blobId, mime } = each as { blobId?: unknown; mime?: unknown };
    if (typeof blobId === 'string' && SHA256_HEX.test(blobId) && !found.get(blobId)?.mime)
      found.set(blobId, { blobId, ...(typeof mime === 'string' ? { mime } : {}) });
    for (const entry of Object.values(each)) visit(entry);
  };
  visit(value);
  return [...found.values()];
}
