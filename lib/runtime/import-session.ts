import type { BlobStore } from '../files/blob-store';
import type { AgentEventDraft } from '../protocol/agent-event';
import { readSessionExportText } from '../protocol/session-export-document';
import type { SessionLock } from '../session-log/session-lock';
import { importDrafts } from './import-drafts';

/** An imported conversation: its id, whether that is a new one, and how many of its files the export lacked. */
export interface SessionImportResult {
  sessionId: string;
  remapped: boolean;
  missingFiles: number;
}

export interface ImportAccess {
  lock: SessionLock;
  newId(): string;
  /** Stamps and records drafts; the caller holds the session's lock. */
  commitDrafts(sessionId: string, drafts: AgentEventDraft[]): Promise<void>;
  lastSeq(sessionId: string): Promise<number>;
  blobStore?: BlobStore;
}

/** The checked document: its events for a session id, the files it names that were staged, and those missing. */
interface ImportCheck {
  original: string;
  drafts(sessionId: string): AgentEventDraft[];
  present: string[];
  missing: string[];
}

/**
 * Writes an exported conversation the panel staged in the blob store (its `conversation.json` and files under
 * `stagingId`): read and checked again here, then committed as one log write under the conversation's own id,
 * or a new one when that id is taken (importing the same file twice). The files are shared to it before the
 * commit and taken back if the commit fails; the staging references are freed whatever happens.
 */
export async function importSession(
  access: ImportAccess,
  stagingId: string,
  documentBlobId: string,
): Promise<SessionImportResult> {
  const blobs = access.blobStore;
  if (!blobs) throw new Error('This runtime keeps no files, so it cannot import a conversation.');
  try {
    const checked = await checkImport(blobs, documentBlobId);
    const write = (sessionId: string) => writeImport(access, blobs, stagingId, sessionId, checked);
    const { original } = checked;
    const missingFiles = checked.missing.length;
    const kept = await access.lock.run(original, async () => {
      if ((await access.lastSeq(original)) > 0) return false;
      await write(original);
      return true;
    });
    if (kept) return { sessionId: original, remapped: false, missingFiles };
    const copyId = access.newId();
    await access.lock.run(copyId, () => write(copyId));
    return { sessionId: copyId, remapped: true, missingFiles };
  } finally {
    await blobs.release(stagingId);
  }
}

async function checkImport(blobs: BlobStore, documentBlobId: string): Promise<ImportCheck> {
  const bytes = await blobs.read(documentBlobId);
  if (!bytes) throw new Error('The conversation to import was not staged.');
  const reading = readSessionExportText(bytes);
  if (!reading.ok) throw new Error(reading.error);
  const plan = importDrafts(reading.document);
  if (!plan.ok) throw new Error(plan.reason);
  const present: string[] = [];
  const missing: string[] = [];
  for (const blobId of plan.blobIds) ((await blobs.referenceCount(blobId)) > 0 ? present : missing).push(blobId);
  const excused = new Set(reading.document.version === 1 ? missing : (reading.document.missingBlobIds ?? []));
  const lacking = missing.find((blobId) => !excused.has(blobId));
  if (lacking) throw new Error(`The file ${lacking} that the conversation names was not imported with it.`);
  return { original: reading.document.session.sessionId, drafts: plan.drafts, present, missing };
}

/** The staged files shared to `sessionId`, then its one commit; the caller holds that session's lock. */
async function writeImport(
  access: ImportAccess,
  blobs: BlobStore,
  stagingId: string,
  sessionId: string,
  checked: ImportCheck,
): Promise<void> {
  await blobs.share(stagingId, sessionId, checked.present);
  try {
    await access.commitDrafts(sessionId, checked.drafts(sessionId));
  } catch (error) {
    await blobs.release(sessionId);
    throw error;
  }
}
