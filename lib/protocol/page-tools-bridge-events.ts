/** The CustomEvent names of the page-tools bridge (kept apart from the schemas so the main-world script carries no zod). */
export const PAGE_TOOLS_REQUEST_EVENT = 'splitbrain:page-tools-request';
export const PAGE_TOOLS_REPLY_EVENT = 'splitbrain:page-tools-reply';
