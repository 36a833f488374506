import type { AgentEvent } from '../protocol/agent-event';
import type { BlobRef } from '../protocol/blob-ref';

/** The newest file the user attached in this log whose name (or sha256) is `file`; the log is one conversation's. */
export function attachedFile(events: readonly AgentEvent[], file: string): BlobRef | undefined {
  const attached = events.flatMap((event) =>
    event.type === 'turn/started' ? (event.data.attachments ?? []).map((attachment) => attachment.blob) : [],
  );
  return attached.findLast((blob) => blob.name === file || blob.sha256 === file.toLowerCase());
}
