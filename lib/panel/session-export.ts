import { z } from 'zod';
import type { AgentEvent } from '../protocol/agent-event';
import { readStoredEvent } from '../protocol/event-migrations';

const SESSION_EXPORT_FORMAT = 'splitbrain-session';

export interface SessionExport {
  format: typeof SESSION_EXPORT_FORMAT;
  version: 1;
  exportedAt: string;
  session: { sessionId: string; title: string; createdAt?: number; updatedAt?: number };
  events: AgentEvent[];
}

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
 * A session as a self-contained JSON document: its durable events as the log holds them. API keys are
 * never in the log; any secret handed in is still scrubbed in case the user typed it into the chat.
 */
export function sessionExport(
  session: SessionExport['session'],
  events: readonly AgentEvent[],
  secrets: readonly string[],
  exportedAt: Date,
): SessionExport {
  const usable = secrets.filter((secret) => secret.length >= 8);
  return {
    format: SESSION_EXPORT_FORMAT,
    version: 1,
    exportedAt: exportedAt.toISOString(),
    session: { ...session, title: redact(session.title, usable) as string },
    events: redact(events, usable) as AgentEvent[],
  };
}

const sessionExportSchema = z.object({
  format: z.literal(SESSION_EXPORT_FORMAT),
  version: z.literal(1),
  exportedAt: z.string(),
  session: z.object({
    sessionId: z.string().min(1),
    title: z.string(),
    createdAt: z.number().optional(),
    updatedAt: z.number().optional(),
  }),
  events: z.array(z.unknown()),
});

export type SessionImport = { ok: true; document: SessionExport } | { ok: false; error: string };

/**
 * Reads an exported session back: its events go through the same migrations as stored rows, so a file written
 * by an older version imports as current events, and one holding an event newer than this code is refused whole.
 */
export function readSessionExport(raw: unknown): SessionImport {
  const parsed = sessionExportSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: `Not a Splitbrain session: ${parsed.error.issues[0]?.message}` };
  const events: AgentEvent[] = [];
  for (const [index, candidate] of parsed.data.events.entries()) {
    const reading = readStoredEvent(candidate);
    if (!reading.ok) return { ok: false, error: `Event ${index} of the session is unreadable: ${reading.reason}.` };
    events.push(reading.event);
  }
  return { ok: true, document: { ...parsed.data, events } as SessionExport };
}

/** `splitbrain-make-the-particles-faster-2025-01-31.json` */
export function sessionExportFileName(title: string, exportedAt: Date): string {
  const slug = title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `splitbrain-${slug || 'conversation'}-${exportedAt.toISOString().slice(0, 10)}.json`;
}
