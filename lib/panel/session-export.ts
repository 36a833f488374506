import type { AgentEvent } from '../protocol/agent-event';

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
