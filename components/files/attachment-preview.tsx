import { useEffect, useRef, useState } from 'react';
import { formatFileSize } from '@/lib/files/format-file-size';
import { isImageType, isTextType } from '@/lib/files/file-kinds';
import type { BlobRef } from '@/lib/protocol/blob-ref';
import { useBlobPreview } from './blob-context';

function describe(ref: BlobRef): string {
  return `${ref.name}, ${formatFileSize(ref.size)}${ref.width && ref.height ? `, ${ref.width} × ${ref.height}` : ''}${ref.pages ? `, ${ref.pages} pages` : ''}`;
}

/** A stored file: a thumbnail for an image, a name tile otherwise; click opens it full size (Esc closes). */
export function AttachmentPreview({ blob }: { blob: BlobRef }) {
  const preview = useBlobPreview(blob.blobId, blob.mime);
  const [open, setOpen] = useState(false);
  const label = describe(blob);
  if (preview.status === 'missing')
    return (
      <span className="attachment-tile attachment-missing" title={label} data-blob-id={blob.blobId}>
        {blob.name}: file no longer available
      </span>
    );
  const image = isImageType(blob.mime);
  return (
    <>
      <button
        type="button"
        className="attachment-tile"
        title={label}
        aria-label={`Open ${label}`}
        data-blob-id={blob.blobId}
        onClick={() => setOpen(true)}
        disabled={preview.status !== 'ready'}
      >
        {image && preview.status === 'ready' ? (
          <img className="attachment-thumbnail" src={preview.url} alt={blob.name} />
        ) : (
          <span className="attachment-name">{blob.name}</span>
        )}
      </button>
      {open && preview.status === 'ready' && (
        <AttachmentViewer blob={blob} url={preview.url} data={preview.blob} onClose={() => setOpen(false)} />
      )}
    </>
  );
}

function AttachmentViewer(props: { blob: BlobRef; url: string; data: Blob; onClose(): void }) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [text, setText] = useState<string>();
  const isText = isTextType(props.blob.mime);
  useEffect(() => {
    dialogRef.current?.showModal();
  }, []);
  useEffect(() => {
    if (isText) void props.data.text().then(setText);
  }, [isText, props.data]);
  return (
    <dialog
      ref={dialogRef}
      className="attachment-viewer"
      aria-label={describe(props.blob)}
      onClose={props.onClose}
      onClick={(event) => event.target === dialogRef.current && dialogRef.current?.close()}
    >
      <header className="attachment-viewer-header">
        <span>{describe(props.blob)}</span>
        <button type="button" className="button-quiet" onClick={() => dialogRef.current?.close()}>
          Close
        </button>
      </header>
      {isImageType(props.blob.mime) && <img src={props.url} alt={props.blob.name} />}
      {isText && <pre className="attachment-text">{text}</pre>}
      {!isText && !isImageType(props.blob.mime) && (
        <a href={props.url} download={props.blob.name}>
          Download {props.blob.name}
        </a>
      )}
    </dialog>
  );
}

export function MessageAttachments({ blobs }: { blobs: BlobRef[] }) {
  return (
    <ul className="message-attachments" aria-label="Attached files">
      {blobs.map((blob, index) => (
        <li key={`${blob.blobId}-${index}`}>
          <AttachmentPreview blob={blob} />
        </li>
      ))}
    </ul>
  );
}
