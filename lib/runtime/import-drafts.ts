import { isDurableType, type AgentEvent, type AgentEventDraft } from '../protocol/agent-event';
import { blobsNamedIn } from '../protocol/blob-refs-in';
import type { SessionExport } from '../protocol/session-export-document';

export type ImportPlan =
  | {
      ok: true;
      /** The events as drafts for `sessionId`: the runtime stamps them again, seq 1… in the file's order. */
      drafts: (sessionId: string) => AgentEventDraft[];
      blobIds: string[];
    }
  | { ok: false; reason: string };

function asDraft(event: AgentEvent, sessionId: string): AgentEventDraft {
  const { seq: _seq, durable: _durable, schemaVersion: _version, ...draft } = event;
  return { ...draft, sessionId } as AgentEventDraft;
}

/**
 * What importing an export writes: its events, each unchanged but for the session id (kept, or a new one when
 * the conversation is already here), in seq order. A file holding a transient event (never stored), an event of
 * another conversation or events out of order is refused whole: no log this code writes looks like that.
 */
export function importDrafts(document: SessionExport): ImportPlan {
  const { sessionId } = document.session;
  if (document.events.length === 0) return { ok: false, reason: 'The conversation has no events.' };
  let lastSeq = 0;
  for (const [index, event] of document.events.entries()) {
    if (!event.durable || !isDurableType(event.type))
      return { ok: false, reason: `Event ${index} (${event.type}) is not one a log keeps.` };
    if (event.sessionId !== sessionId)
      return { ok: false, reason: `Event ${index} (${event.type}) belongs to another conversation.` };
    if (event.seq <= lastSeq) return { ok: false, reason: `Event ${index} (${event.type}) is out of order.` };
    lastSeq = event.seq;
  }
  return {
    ok: true,
    drafts: (target) => document.events.map((event) => asDraft(event, target)),
    blobIds: blobsNamedIn(document.events).map((blob) => blob.blobId),
  };
}
