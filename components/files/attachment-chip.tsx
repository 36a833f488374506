import { formatFileSize } from '@/lib/files/format-file-size';
import type { UploadView } from '@/lib/state/upload-view';
import { AttachmentPreview } from './attachment-preview';
import { CrossIcon } from '../shared/icons';

const STATE_LABELS: Record<UploadView['state'], string> = {
  selected: 'Selected',
  hashing: 'Reading…',
  ready: 'Ready',
  attached: 'Sent',
  consumed: 'Sent',
  failed: 'Failed',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
};

/** One file in the composer: name, size, state, why it was refused; removable by mouse and keyboard. */
export function AttachmentChip({ upload, onRemove }: { upload: UploadView; onRemove(uploadId: string): void }) {
  const mismatch =
    upload.blob && upload.declaredType && upload.declaredType !== upload.blob.mime
      ? `Named ${upload.declaredType}, its bytes are ${upload.blob.mime}`
      : undefined;
  return (
    <li
      className="attachment-chip"
      data-state={upload.state}
      data-upload-id={upload.uploadId}
      aria-label={`${upload.name}, ${formatFileSize(upload.size)}, ${STATE_LABELS[upload.state]}`}
    >
      {upload.state === 'ready' && upload.blob && <AttachmentPreview blob={upload.blob} />}
      <span className="attachment-chip-text">
        <span className="attachment-name">{upload.name}</span>
        <span className="attachment-meta">
          {formatFileSize(upload.size)} · <span className="attachment-state">{STATE_LABELS[upload.state]}</span>
        </span>
        {upload.reason && upload.state !== 'ready' && <span className="attachment-reason">{upload.reason}</span>}
        {mismatch && <span className="attachment-reason">{mismatch}</span>}
      </span>
      <button
        type="button"
        className="icon-button"
        aria-label={`Remove ${upload.name}`}
        title={`Remove ${upload.name}`}
        onClick={() => onRemove(upload.uploadId)}
      >
        <CrossIcon />
      </button>
    </li>
  );
}
