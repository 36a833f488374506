import { z } from 'zod';
import { jsonValueSchema } from './json-value';
import { pageEvidenceSchema, pageToolSchema } from './page-wire';

/*
 * The page-agent content script (isolated world) ⇄ the page-tools bridge (the page's main world, where
 * `navigator.modelContext` lives). Both directions are CustomEvents on `document` whose `detail` is a JSON string;
 * the page can read and forge them, so the content script trusts a reply only as far as this schema (page tools are
 * the page's own API: its answers are page data, like its text).
 */
export {
  PAGE_EVIDENCE_REPLY_EVENT,
  PAGE_EVIDENCE_REQUEST_EVENT,
  PAGE_TOOLS_REPLY_EVENT,
  PAGE_TOOLS_REQUEST_EVENT,
} from './page-tools-bridge-events';

const callId = z.string().min(1).max(100);

export const pageToolsBridgeRequestSchema = z.discriminatedUnion('kind', [
  z.object({ id: callId, kind: z.literal('list') }),
  z.object({ id: callId, kind: z.literal('call'), name: z.string().min(1).max(200), arguments: jsonValueSchema }),
]);
export type PageToolsBridgeRequest = z.infer<typeof pageToolsBridgeRequestSchema>;

export const pageToolsBridgeReplySchema = z.union([
  z.object({ id: callId, kind: z.literal('list'), tools: z.array(pageToolSchema).max(100) }),
  z.object({ id: callId, kind: z.literal('call'), ok: z.literal(true), result: jsonValueSchema }),
  z.object({ id: callId, kind: z.literal('call'), ok: z.literal(false), reason: z.string().max(2000) }),
]);
export type PageToolsBridgeReply = z.infer<typeof pageToolsBridgeReplySchema>;

/** The recorder's answer to `splitbrain:evidence-request`; forgeable by the page, so page data, validated. */
export const pageEvidenceBridgeReplySchema = pageEvidenceSchema.extend({ id: callId });
export type PageEvidenceBridgeReply = z.infer<typeof pageEvidenceBridgeReplySchema>;
