import { z } from 'zod';
import type { AgentEvent } from './agent-event';
import { blobRefSchema } from './blob-ref';
import { readStoredEvent } from './event-migrations';

export const SESSION_EXPORT_FORMAT = 'splitbrain-session';

/**
 * Version 1: a JSON file of the events alone (the files they name were left out). Version 2: `conversation.json`
 * in a zip beside `blobs/<blobId>`, one entry per file the events name, but for those listed in `missingBlobIds`
 * (already missing from this browser when it was exported).
 */
export const SESSION_EXPORT_VERSION = 2;

const sessionHeaderSchema = z.object({
  sessionId: z.string().min(1).max(200),
  title: z.string().max(500),
  createdAt: z.number().optional(),
  updatedAt: z.number().optional(),
});

export interface SessionExport {
  format: typeof SESSION_EXPORT_FORMAT;
  version: 1 | typeof SESSION_EXPORT_VERSION;
  exportedAt: string;
  session: z.infer<typeof sessionHeaderSchema>;
  events: AgentEvent[];
  missingBlobIds?: string[];
}

const sessionExportSchema = z.object({
  format: z.literal(SESSION_EXPORT_FORMAT),
  version: z.union([z.literal(1), z.literal(SESSION_EXPORT_VERSION)]),
  exportedAt: z.string().max(100),
  session: sessionHeaderSchema,
  events: z.array(z.unknown()),
  missingBlobIds: z.array(blobRefSchema.shape.blobId).optional(),
});

export type SessionExportReading =
  | { ok: true; document: SessionExport }
  /** `notJson`: the bytes are no JSON text at all (another kind of file), rather than a wrong document. */
  | { ok: false; error: string; notJson?: true };

/**
 * Reads an exported session back: its events go through the same migrations as stored rows, so a file written
 * by an older version imports as current events, and one holding an event newer than this code is refused whole.
 */
export function readSessionExport(raw: unknown): SessionExportReading {
  const parsed = sessionExportSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` (${issue.path.join('.')})` : '';
    return { ok: false, error: `Not a Splitbrain conversation export: ${issue?.message ?? 'invalid'}${where}.` };
  }
  const events: AgentEvent[] = [];
  for (const [index, candidate] of parsed.data.events.entries()) {
    const reading = readStoredEvent(candidate);
    if (!reading.ok)
      return { ok: false, error: `Event ${index} of the conversation is unreadable: ${reading.reason}.` };
    events.push(reading.event);
  }
  const { missingBlobIds, ...rest } = parsed.data;
  return { ok: true, document: { ...rest, events, ...(missingBlobIds ? { missingBlobIds } : {}) } };
}

/** `conversation.json` as bytes: UTF-8, then JSON, then the export's schema; never a value unchecked. */
export function readSessionExportText(bytes: Uint8Array): SessionExportReading {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, error: 'The conversation is not UTF-8 text.', notJson: true };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'unreadable';
    return { ok: false, error: `The conversation is not JSON: ${reason}.`, notJson: true };
  }
  return readSessionExport(raw);
}
