/** The CustomEvent names of the page-tools bridge (kept apart from the schemas so the main-world script carries no zod). */
export const PAGE_TOOLS_REQUEST_EVENT = 'splitbrain:page-tools-request';
export const PAGE_TOOLS_REPLY_EVENT = 'splitbrain:page-tools-reply';
/** The page agent asks the bridge which elements have click listeners of their own… */
export const CLICKABLES_REQUEST_EVENT = 'splitbrain:clickables-request';
/** …and the bridge answers with one of these on each such element; `detail` is how many event types it listens for. */
export const CLICKABLE_REPLY_EVENT = 'splitbrain:clickable';
/** The page agent asks the bridge's recorder what went wrong since it last asked (`detail`: a JSON `{ id }`)… */
export const PAGE_EVIDENCE_REQUEST_EVENT = 'splitbrain:evidence-request';
/** …and the recorder answers at once, during the request's dispatch, with one of these (`detail`: JSON). */
export const PAGE_EVIDENCE_REPLY_EVENT = 'splitbrain:evidence-reply';
/** How much of what went wrong in one document one answer carries; the rest is counted (in both worlds). */
export const PAGE_EVIDENCE_LIMITS = { consoleErrors: 10, dialogs: 5, textLength: 300 } as const;
/** The page agent asks the bridge to drop a file on the event's target (`detail`: JSON `{ name, type, base64 }`). */
export const DROP_FILE_EVENT = 'splitbrain:drop-file';
