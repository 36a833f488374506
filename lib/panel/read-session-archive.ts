import { unzipSync, type Unzipped } from 'fflate';
import { sha256Hex } from '../files/sha256-hex';
import { formatFileSize } from '../files/format-file-size';
import { blobsNamedIn } from '../protocol/blob-refs-in';
import { readSessionExportText, type SessionExport } from '../protocol/session-export-document';
import { SESSION_ARCHIVE_LIMITS } from './session-archive-limits';

/** One file of the archive, checked: its bytes hash to its blobId. */
export interface ArchivedFile {
  blobId: string;
  mime: string;
  bytes: Uint8Array;
}

export type SessionArchiveReading =
  | {
      ok: true;
      document: SessionExport;
      /** `conversation.json` as it was read: what the runtime reads again itself. */
      documentBytes: Uint8Array;
      files: ArchivedFile[];
      /** Files the events name that the export did not carry (all of them in a JSON-only export). */
      missingBlobIds: string[];
    }
  | { ok: false; error: string };

const DOCUMENT_ENTRY = 'conversation.json';
const BLOB_ENTRY = /^blobs\/[0-9a-f]{64}$/;

class ArchiveTooLarge extends Error {}

function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 0x03 || bytes[2] === 0x05);
}

/** Unpacks only the entries an export has, refusing before inflating once the declared sizes pass the caps. */
function unpack(bytes: Uint8Array): { ok: true; entries: Unzipped } | { ok: false; error: string } {
  let count = 0;
  let declared = 0;
  try {
    const entries = unzipSync(bytes, {
      filter: (entry) => {
        if (entry.name !== DOCUMENT_ENTRY && !BLOB_ENTRY.test(entry.name)) return false;
        count += 1;
        declared += entry.originalSize;
        if (count > SESSION_ARCHIVE_LIMITS.maxEntries || declared > SESSION_ARCHIVE_LIMITS.maxUnpackedBytes)
          throw new ArchiveTooLarge();
        return true;
      },
    });
    return { ok: true, entries };
  } catch (error) {
    if (error instanceof ArchiveTooLarge)
      return {
        ok: false,
        error: `The archive unpacks to more than an import takes (${formatFileSize(SESSION_ARCHIVE_LIMITS.maxUnpackedBytes)}, ${SESSION_ARCHIVE_LIMITS.maxEntries} files); nothing was imported.`,
      };
    return { ok: false, error: 'The file is not a readable zip archive.' };
  }
}

function entryOf(entries: Unzipped, name: string): Uint8Array | undefined {
  return Object.hasOwn(entries, name) ? entries[name] : undefined;
}

/**
 * Reads an exported conversation: a zip of `conversation.json` and `blobs/<blobId>` (version 2), or the JSON file
 * of version 1 (no files). Everything is checked before anything is stored: the size caps, UTF-8 and JSON, the
 * export's schema and every event's (migrated as stored rows are), and each file the events name, which must be
 * in the archive (unless the export says it was already missing) with bytes that hash to its id.
 */
export async function readSessionArchive(bytes: Uint8Array): Promise<SessionArchiveReading> {
  if (bytes.length > SESSION_ARCHIVE_LIMITS.maxFileBytes)
    return {
      ok: false,
      error: `The file is ${formatFileSize(bytes.length)}; an import takes at most ${formatFileSize(SESSION_ARCHIVE_LIMITS.maxFileBytes)}.`,
    };
  if (!isZip(bytes)) {
    const reading = readSessionExportText(bytes);
    if (!reading.ok)
      return { ok: false, error: reading.notJson ? 'The file is neither a zip archive nor JSON.' : reading.error };
    const missingBlobIds = blobsNamedIn(reading.document.events).map((blob) => blob.blobId);
    const excused = new Set(reading.document.missingBlobIds ?? []);
    if (reading.document.version !== 1 && missingBlobIds.some((blobId) => !excused.has(blobId)))
      return {
        ok: false,
        error: 'This is the conversation.json of a zip export, without its files: import the .zip file itself.',
      };
    return { ok: true, document: reading.document, documentBytes: bytes, files: [], missingBlobIds };
  }
  const unpacked = unpack(bytes);
  if (!unpacked.ok) return unpacked;
  const documentBytes = entryOf(unpacked.entries, DOCUMENT_ENTRY);
  if (!documentBytes)
    return { ok: false, error: `The archive has no ${DOCUMENT_ENTRY}: it is not a conversation export.` };
  const reading = readSessionExportText(documentBytes);
  if (!reading.ok) return reading;
  const { document } = reading;
  const knownMissing = new Set(document.missingBlobIds ?? []);
  const files: ArchivedFile[] = [];
  const missingBlobIds: string[] = [];
  for (const { blobId, mime } of blobsNamedIn(document.events)) {
    const fileBytes = entryOf(unpacked.entries, `blobs/${blobId}`);
    if (!fileBytes) {
      if (!knownMissing.has(blobId))
        return { ok: false, error: `The archive lacks the file blobs/${blobId} that the conversation names.` };
      missingBlobIds.push(blobId);
      continue;
    }
    if ((await sha256Hex(fileBytes)) !== blobId)
      return {
        ok: false,
        error: `The file blobs/${blobId} does not match its hash: the archive is damaged or altered.`,
      };
    files.push({ blobId, mime: mime ?? 'application/octet-stream', bytes: fileBytes });
  }
  return { ok: true, document, documentBytes, files, missingBlobIds };
}
