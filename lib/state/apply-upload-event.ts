import type { AgentEventOf } from '../protocol/agent-event';
import { canMoveTo } from './upload-view';
import type { EventAppliers } from './event-appliers';
import type { WorkingCopy } from './working-copy';

/** An upload's next state; out-of-order or repeated states change nothing. */
function applyUploadEvent(copy: WorkingCopy, event: AgentEventOf<'upload/state'>): void {
  const current = copy.state.uploads[event.uploadId];
  if (!canMoveTo(current?.state, event.data.state)) return;
  const { state, name, size, declaredType, blob, turnId, rejection, reason } = event.data;
  copy.table('uploads')[event.uploadId] = {
    ...current,
    uploadId: event.uploadId,
    partId: event.partId,
    state,
    name,
    size,
    selectedAt: current?.selectedAt ?? event.time,
    ...(declaredType !== undefined ? { declaredType } : {}),
    ...(blob ? { blob } : {}),
    ...(turnId ? { turnId } : {}),
    ...(rejection ? { rejection } : {}),
    ...(reason !== undefined ? { reason } : {}),
  };
}

export const UPLOAD_APPLIERS: EventAppliers<'upload/state'> = { 'upload/state': applyUploadEvent };
