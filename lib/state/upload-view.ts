import type { BlobRef } from '../protocol/blob-ref';
import type { UploadRejection, UploadStateName } from '../protocol/upload-events';

/** One attached file as the panel shows it: its latest recorded state. */
export interface UploadView {
  uploadId: string;
  partId: string;
  state: UploadStateName;
  name: string;
  size: number;
  declaredType?: string;
  blob?: BlobRef;
  turnId?: string;
  rejection?: UploadRejection;
  reason?: string;
  /** When it was selected: the composer lists drafts in this order. */
  selectedAt: number;
}

const FINAL_STATES = new Set<UploadStateName>(['consumed', 'failed', 'rejected', 'cancelled']);
const ORDER: Record<UploadStateName, number> = {
  selected: 0,
  hashing: 1,
  ready: 2,
  attached: 3,
  consumed: 4,
  failed: 5,
  rejected: 5,
  cancelled: 5,
};

/**
 * Whether an upload in `current` may move to `next`: forward only, nothing after a final state, and a file
 * already sent with a message can no longer be cancelled, fail or be rejected.
 */
export function canMoveTo(current: UploadStateName | undefined, next: UploadStateName): boolean {
  if (current === undefined) return true;
  if (FINAL_STATES.has(current)) return false;
  if (current === 'attached') return next === 'consumed';
  return ORDER[next] > ORDER[current];
}

/** Files in the composer, not yet sent: in the order they were picked. */
export function composerUploads(uploads: Record<string, UploadView>): UploadView[] {
  return Object.values(uploads)
    .filter((upload) => ['selected', 'hashing', 'ready', 'failed', 'rejected'].includes(upload.state))
    .sort((left, right) => left.selectedAt - right.selectedAt);
}
