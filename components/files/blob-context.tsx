import { createContext, useContext, useEffect, useState } from 'react';

/** Reads stored bytes by blobId; undefined when they are gone. Provided by the side panel. */
export type ReadBlob = (blobId: string, mime: string) => Promise<Blob | undefined>;

export const BlobContext = createContext<ReadBlob>(async () => undefined);

export type BlobPreview = { status: 'loading' } | { status: 'missing' } | { status: 'ready'; url: string; blob: Blob };

/** An object URL for a stored blob while the caller is mounted; revoked when it goes away. */
export function useBlobPreview(blobId: string, mime: string): BlobPreview {
  const readBlob = useContext(BlobContext);
  const [preview, setPreview] = useState<BlobPreview>({ status: 'loading' });
  useEffect(() => {
    let url: string | undefined;
    let live = true;
    readBlob(blobId, mime).then(
      (blob) => {
        if (!live) return;
        if (!blob) return setPreview({ status: 'missing' });
        url = URL.createObjectURL(blob);
        setPreview({ status: 'ready', url, blob });
      },
      () => live && setPreview({ status: 'missing' }),
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [readBlob, blobId, mime]);
  return preview;
}
