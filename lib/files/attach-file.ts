import type { AgentEventDraft } from '../protocol/agent-event';
import type { BlobRef } from '../protocol/blob-ref';
import type { UploadRejection, UploadStateName } from '../protocol/upload-events';
import type { BlobStore } from './blob-store';
import { INTAKE_LIMITS } from './file-limits';
import { inspectFileBytes } from './inspect-file-bytes';
import { blobRefOf } from './store-bytes';
import { errorText } from '../protocol/error-text';

/** A file as the browser hands it over; `bytes` is read only once the size is known to be acceptable. */
export interface PickedFile {
  name: string;
  size: number;
  type: string;
  bytes(): Promise<Uint8Array>;
}

export interface AttachDependencies {
  sessionId: string;
  store: BlobStore;
  /** Records the events (the runtime's append); resolves once they are in the log. */
  record(drafts: AgentEventDraft[]): Promise<void>;
  /** True once the user removed the file: its later states are not written. */
  isCancelled(uploadId: string): boolean;
  newId(): string;
  now(): number;
}

interface UploadFields {
  blob?: BlobRef;
  rejection?: UploadRejection;
  reason?: string;
}

/**
 * One file through `selected → hashing → ready`, or `rejected` (with why) or `failed`. The type is sniffed
 * from the bytes and every limit is checked before anything decodes them; only a `ready` file has a BlobRef.
 */
export async function attachFile(
  file: PickedFile,
  dependencies: AttachDependencies,
  ids = { uploadId: dependencies.newId(), partId: dependencies.newId() },
): Promise<{ uploadId: string; state: UploadStateName }> {
  const { uploadId, partId } = ids;
  const draft = (state: UploadStateName, fields: UploadFields = {}): AgentEventDraft => ({
    type: 'upload/state',
    sessionId: dependencies.sessionId,
    uploadId,
    partId,
    time: dependencies.now(),
    data: {
      state,
      name: file.name.slice(0, 500),
      size: file.size,
      ...(file.type ? { declaredType: file.type.slice(0, 200) } : {}),
      ...fields,
    },
  });
  const finish = async (state: UploadStateName, fields: UploadFields = {}) => {
    if (dependencies.isCancelled(uploadId)) return { uploadId, state: 'cancelled' as const };
    await dependencies.record([draft(state, fields)]);
    return { uploadId, state };
  };
  if (file.size > INTAKE_LIMITS.maxFileBytes) {
    await dependencies.record([draft('selected')]);
    return finish('rejected', {
      rejection: 'too-large',
      reason: `Larger than ${INTAKE_LIMITS.maxFileBytes / (1024 * 1024)} MB.`,
    });
  }
  await dependencies.record([draft('selected'), draft('hashing')]);
  try {
    const bytes = await file.bytes();
    const inspection = await inspectFileBytes(bytes, file.name);
    if (!inspection.ok) return finish('rejected', { rejection: inspection.rejection, reason: inspection.reason });
    const blob = await blobRefOf(bytes, file.name.slice(0, 500), inspection);
    if (dependencies.isCancelled(uploadId)) return { uploadId, state: 'cancelled' };
    await dependencies.store.put({ bytes, ref: blob, sessionId: dependencies.sessionId, ownerId: uploadId });
    return finish('ready', { blob });
  } catch (error) {
    return finish('failed', { reason: errorText(error).slice(0, 2000) });
  }
}
