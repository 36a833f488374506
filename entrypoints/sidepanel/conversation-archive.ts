import { errorText } from '@/lib/protocol/error-text';
import { formatFileSize } from '@/lib/files/format-file-size';
import { readSessionArchive } from '@/lib/panel/read-session-archive';
import { SESSION_ARCHIVE_LIMITS } from '@/lib/panel/session-archive-limits';
import {
  sessionArchive,
  sessionBlobIds,
  sessionExport,
  sessionExportFileName,
  type SessionExport,
} from '@/lib/panel/session-export';
import { stageSessionImport } from '@/lib/panel/stage-session-import';
import type { RuntimeResult } from '@/lib/protocol/runtime-result-schemas';
import { downloadBytes } from '../shared/download-file';
import { callRuntime, readEvents } from '../shared/call-runtime';
import { panelBlobStore } from './panel-blob-store';

/** Downloads a conversation as a zip of its log (without the API key) and the files it names. */
export async function exportConversation(header: SessionExport['session'], secrets: string[]): Promise<void> {
  const events = await readEvents(header.sessionId, 0);
  const files = new Map<string, Uint8Array>();
  const missing: string[] = [];
  for (const blobId of sessionBlobIds(events)) {
    const bytes = await panelBlobStore.read(blobId);
    if (bytes) files.set(blobId, bytes);
    else missing.push(blobId);
  }
  const now = new Date();
  const archive = sessionArchive(sessionExport(header, events, secrets, now, missing), files);
  if (!archive.ok) throw new Error(archive.error);
  downloadBytes(archive.bytes, sessionExportFileName(header.title, now), 'application/zip');
}

/**
 * Imports an exported conversation: checked whole in the panel, its files staged in the blob store, then
 * committed by the runtime, which reads it again. Throws with the reason when anything is wrong; nothing is kept then.
 */
export async function importConversation(file: File): Promise<RuntimeResult<'session/import'>> {
  if (file.size > SESSION_ARCHIVE_LIMITS.maxFileBytes)
    throw new Error(
      `The file is ${formatFileSize(file.size)}; an import takes at most ${formatFileSize(SESSION_ARCHIVE_LIMITS.maxFileBytes)}.`,
    );
  const reading = await readSessionArchive(new Uint8Array(await file.arrayBuffer()));
  if (!reading.ok) throw new Error(reading.error);
  const stagingId = `import-staging-${crypto.randomUUID()}`;
  try {
    const staged = await stageSessionImport(reading, panelBlobStore, stagingId);
    return await callRuntime({ type: 'session/import', ...staged });
  } catch (error) {
    await panelBlobStore.release(stagingId).catch(() => undefined);
    throw new Error(errorText(error));
  }
}

/** What the panel tells the user after an import, when there is something to tell. */
export function importNotice(result: RuntimeResult<'session/import'>): string | undefined {
  const notes = [
    ...(result.remapped ? ['Imported as a copy: ids remapped, since this conversation is already here.'] : []),
    ...(result.missingFiles > 0
      ? [
          `${result.missingFiles === 1 ? 'One file it names was' : `${result.missingFiles} files it names were`} not in the export (an older JSON-only export): ${result.missingFiles === 1 ? 'it shows' : 'they show'} as missing.`,
        ]
      : []),
  ];
  return notes.length > 0 ? notes.join(' ') : undefined;
}
