import { strToU8, zipSync } from 'fflate';
import type { AgentEvent } from '../protocol/agent-event';
import { blobsNamedIn } from '../protocol/blob-refs-in';
import { SESSION_EXPORT_FORMAT, SESSION_EXPORT_VERSION, type SessionExport } from '../protocol/session-export-document';
import { SESSION_ARCHIVE_LIMITS } from './session-archive-limits';
import { formatFileSize } from '../files/format-file-size';

export type { SessionExport } from '../protocol/session-export-document';

const REDACTED = '[redacted]';

/** Replaces every occurrence of a secret (e.g. an API key the user pasted into the chat) in all strings. */
function redact(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return secrets.reduce((text, secret) => text.split(secret).join(REDACTED), value);
  if (Array.isArray(value)) return value.map((entry) => redact(entry, secrets));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, redact(entry, secrets)]));
  return value;
}

/**
 * A session's `conversation.json`: its durable events as the log holds them. API keys are never in the log; any
 * secret handed in is still scrubbed in case the user typed it into the chat. `missingBlobIds`: files the events
 * name that this browser no longer has, so that the archive can be imported without them.
 */
export function sessionExport(
  session: SessionExport['session'],
  events: readonly AgentEvent[],
  secrets: readonly string[],
  exportedAt: Date,
  missingBlobIds: readonly string[] = [],
): SessionExport {
  const usable = secrets.filter((secret) => secret.length >= 8);
  return {
    format: SESSION_EXPORT_FORMAT,
    version: SESSION_EXPORT_VERSION,
    exportedAt: exportedAt.toISOString(),
    session: { ...session, title: redact(session.title, usable) as string },
    events: redact(events, usable) as AgentEvent[],
    ...(missingBlobIds.length > 0 ? { missingBlobIds: [...missingBlobIds] } : {}),
  };
}

/** The blob ids a session's events name: the files its archive carries. */
export function sessionBlobIds(events: readonly AgentEvent[]): string[] {
  return blobsNamedIn(events).map((blob) => blob.blobId);
}

export type SessionArchive = { ok: true; bytes: Uint8Array } | { ok: false; error: string };

/**
 * The export as one zip: `conversation.json` and `blobs/<blobId>` for each file, stored without compression
 * (files are mostly compressed already). Refused when it would be larger than an import accepts.
 */
export function sessionArchive(document: SessionExport, blobs: ReadonlyMap<string, Uint8Array>): SessionArchive {
  const entries: Record<string, [Uint8Array, { level: 0 | 6 }]> = {
    'conversation.json': [strToU8(JSON.stringify(document, null, 2)), { level: 6 }],
  };
  let total = entries['conversation.json']![0].length;
  for (const [blobId, bytes] of blobs) {
    entries[`blobs/${blobId}`] = [bytes, { level: 0 }];
    total += bytes.length;
  }
  if (total > SESSION_ARCHIVE_LIMITS.maxUnpackedBytes)
    return {
      ok: false,
      error: `This conversation and its files come to ${formatFileSize(total)}, more than an import takes (${formatFileSize(SESSION_ARCHIVE_LIMITS.maxUnpackedBytes)}).`,
    };
  const bytes = zipSync(entries);
  if (bytes.length > SESSION_ARCHIVE_LIMITS.maxFileBytes)
    return { ok: false, error: `The export would be ${formatFileSize(bytes.length)}, more than an import takes.` };
  return { ok: true, bytes };
}

/** `splitbrain-make-the-particles-faster-2025-01-31.zip` */
export function sessionExportFileName(title: string, exportedAt: Date): string {
  const slug = title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `splitbrain-${slug || 'conversation'}-${exportedAt.toISOString().slice(0, 10)}.zip`;
}
