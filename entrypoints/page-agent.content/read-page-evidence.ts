import {
  PAGE_EVIDENCE_REPLY_EVENT,
  PAGE_EVIDENCE_REQUEST_EVENT,
  pageEvidenceBridgeReplySchema,
} from '@/lib/protocol/page-tools-bridge-wire';
import type { PageEvidenceReply } from '@/lib/protocol/page-wire';

const NOTHING = { consoleErrors: [], dialogs: [], droppedConsoleErrors: 0, droppedDialogs: 0 };

/**
 * Reads (and so empties) the main-world recorder of this document. It answers during the request's dispatch, so no
 * answer once `dispatchEvent` returns means it is not in this page (a frame the browser gave no main-world script).
 */
export function readPageEvidence(): PageEvidenceReply {
  const id = crypto.randomUUID();
  let reply: PageEvidenceReply | undefined;
  const onReply = (event: Event) => {
    const detail = (event as CustomEvent).detail;
    if (reply !== undefined || typeof detail !== 'string' || detail.length > 200_000) return;
    let value: unknown;
    try {
      value = JSON.parse(detail);
    } catch {
      return;
    }
    const parsed = pageEvidenceBridgeReplySchema.safeParse(value);
    if (!parsed.success || parsed.data.id !== id) return;
    const { id: _id, ...evidence } = parsed.data;
    reply = { type: 'page/evidence', bridge: true, evidence };
  };
  document.addEventListener(PAGE_EVIDENCE_REPLY_EVENT, onReply);
  try {
    document.dispatchEvent(new CustomEvent(PAGE_EVIDENCE_REQUEST_EVENT, { detail: JSON.stringify({ id }) }));
  } finally {
    document.removeEventListener(PAGE_EVIDENCE_REPLY_EVENT, onReply);
  }
  return reply ?? { type: 'page/evidence', bridge: false, evidence: NOTHING };
}
