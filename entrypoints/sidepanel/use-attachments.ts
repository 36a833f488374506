import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ENDPOINT_FILE_LIMITS, fileEndpointKind, INTAKE_LIMITS } from '@/lib/files/file-limits';
import { attachmentRefusal } from '@/lib/files/model-file-content';
import type { AgentEventDraft } from '@/lib/protocol/agent-event';
import type { MessageAttachment } from '@/lib/protocol/upload-events';
import type { EndpointSettings } from '@/lib/settings/endpoint-settings';
import type { ClientState } from '@/lib/state/client-state';
import { composerUploads, type UploadView } from '@/lib/state/upload-view';
import { callRuntime } from '../shared/call-runtime';
import { panelBlobStore } from './panel-blob-store';
import { errorText } from '@/lib/protocol/error-text';

const REMOVED = 'Removed by the user.';
/** Uploads selected after this document loaded belong to a panel that is still open (this one, or another). */
const DOCUMENT_LOADED_AT = Date.now();
const PANEL_CLOSED = 'The panel closed before this file was read; attach it again.';

function record(sessionId: string, events: AgentEventDraft[]): Promise<void> {
  return callRuntime({ type: 'events/append', sessionId, batchId: crypto.randomUUID(), events }).then(() => undefined);
}

function cancelledDraft(sessionId: string, upload: UploadView, reason: string): AgentEventDraft {
  return {
    type: 'upload/state',
    sessionId,
    uploadId: upload.uploadId,
    partId: upload.partId,
    time: Date.now(),
    data: { state: 'cancelled', name: upload.name, size: upload.size, reason },
  };
}

/**
 * The composer's files for the side panel: picked files go through `attachFile` here (this document reads
 * and stores the bytes), their states come back from the log like every other event.
 */
export function useAttachments(state: ClientState | undefined, endpoint: EndpointSettings | undefined) {
  const reading = useRef(new Set<string>());
  const cancelled = useRef(new Set<string>());
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set());
  const [notice, setNotice] = useState<string>();
  const sessionId = state?.sessionId;
  const uploads = state?.uploads;

  // An upload recorded as selected or hashing before this document loaded, that it is not reading, was cut off
  // by a closed panel: it is cancelled, never shown as ready. One selected later may be another open panel's
  // (Firefox opens its sidebar beside a panel tab on the same conversation) and is left to it.
  useEffect(() => {
    if (!sessionId || !uploads) return;
    const stale = Object.values(uploads).filter(
      (upload) =>
        (upload.state === 'selected' || upload.state === 'hashing') &&
        upload.selectedAt < DOCUMENT_LOADED_AT &&
        !reading.current.has(upload.uploadId) &&
        !cancelled.current.has(upload.uploadId),
    );
    if (stale.length === 0) return;
    for (const upload of stale) cancelled.current.add(upload.uploadId);
    void record(
      sessionId,
      stale.map((upload) => cancelledDraft(sessionId, upload, PANEL_CLOSED)),
    ).catch(() => undefined);
  }, [sessionId, uploads]);

  const shown = useMemo(() => {
    if (!uploads) return [];
    const drafts = composerUploads(uploads);
    const cutOff = Object.values(uploads).filter(
      (upload) => upload.state === 'cancelled' && upload.reason === PANEL_CLOSED && !upload.turnId,
    );
    return [...drafts, ...cutOff].filter((upload) => !dismissed.has(upload.uploadId));
  }, [uploads, dismissed]);

  const onAttachFiles = useCallback(
    (files: File[]) => {
      if (!sessionId) return;
      const room = INTAKE_LIMITS.maxFilesPerMessage - shown.length;
      setNotice(
        files.length > room ? `At most ${INTAKE_LIMITS.maxFilesPerMessage} files go with one message.` : undefined,
      );
      void (async () => {
        for (const file of files.slice(0, Math.max(0, room))) {
          const ids = { uploadId: crypto.randomUUID(), partId: crypto.randomUUID() };
          reading.current.add(ids.uploadId);
          try {
            // File sniffing (file-type, image-size) loads with the first file, not with the panel.
            const { attachFile } = await import('@/lib/files/attach-file');
            await attachFile(
              {
                name: file.name || 'pasted-image',
                size: file.size,
                type: file.type,
                bytes: async () => new Uint8Array(await file.arrayBuffer()),
              },
              {
                sessionId,
                store: panelBlobStore,
                record: (drafts) => record(sessionId, drafts),
                isCancelled: (uploadId) => cancelled.current.has(uploadId),
                newId: () => crypto.randomUUID(),
                now: () => Date.now(),
              },
              ids,
            );
          } catch (error) {
            setNotice(`Could not attach ${file.name}: ${errorText(error)}`);
          }
          // Kept in `reading` for good: its last state may reach this panel after `attachFile` returned, and an
          // upload this document started must never be taken for one a closed panel left behind.
        }
      })();
    },
    [sessionId, shown.length],
  );

  const onRemoveAttachment = useCallback(
    (uploadId: string) => {
      const upload = uploads?.[uploadId];
      setDismissed((current) => new Set([...current, uploadId]));
      if (!sessionId || !upload || cancelled.current.has(uploadId)) return;
      cancelled.current.add(uploadId);
      if (upload.state !== 'cancelled')
        void record(sessionId, [cancelledDraft(sessionId, upload, REMOVED)]).catch(() => undefined);
    },
    [sessionId, uploads],
  );

  const ready: MessageAttachment[] = shown.flatMap((upload) =>
    upload.state === 'ready' && upload.blob
      ? [{ uploadId: upload.uploadId, partId: upload.partId, blob: upload.blob }]
      : [],
  );
  const kind = endpoint ? fileEndpointKind(endpoint) : undefined;
  const endpointRefusal = kind
    ? attachmentRefusal(
        ready.map((attachment) => attachment.blob),
        kind,
        ENDPOINT_FILE_LIMITS[kind],
      )
    : undefined;
  return {
    composer: { attachments: shown, attachmentRefusal: endpointRefusal ?? notice, onAttachFiles, onRemoveAttachment },
    /** The files that go with the next message; undefined while one of them cannot. */
    ready: shown.every((upload) => upload.state === 'ready') && !endpointRefusal ? ready : undefined,
    /** After a send: the files left the composer (they are `attached` in the log). */
    sent: () => setNotice(undefined),
  };
}
