/** The CustomEvent names of the page-tools bridge (kept apart from the schemas so the main-world script carries no zod). */
export const PAGE_TOOLS_REQUEST_EVENT = 'splitbrain:page-tools-request';
export const PAGE_TOOLS_REPLY_EVENT = 'splitbrain:page-tools-reply';
/** The page agent asks the bridge which elements have click listeners of their own… */
export const CLICKABLES_REQUEST_EVENT = 'splitbrain:clickables-request';
/** …and the bridge answers with one of these on each such element; `detail` is how many event types it listens for. */
export const CLICKABLE_REPLY_EVENT = 'splitbrain:clickable';
