import { z } from 'zod';
import { jsonValueSchema } from './json-value';
import { PAGE_EVIDENCE_LIMITS } from './page-tools-bridge-events';

/*
 * The page wire: background (the runtime) → the page-agent content script of one frame, sent with
 * `tabs.sendMessage(tabId, request, { frameId })`; the promise resolves to the reply. Every frame's script answers for
 * its own document only; the runtime stitches frames (see `lib/page-observation/stitch-frames.ts`). Refs on this wire are the
 * frame's own (`e12`); the runtime adds and strips the frame prefix (`f1e12`).
 */

export const PAGE_WIRE_VERSION = 1;

/** A ref inside one frame's document: `e` and a number that is never reused for another element of that document. */
export const pageRefSchema = z.string().regex(/^e\d{1,9}$/);
export type PageRef = z.infer<typeof pageRefSchema>;

/** CSS pixels in the frame's viewport (`getBoundingClientRect`). */
export const pageBoxSchema = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });
export type PageBox = z.infer<typeof pageBoxSchema>;

/** `visualScale` is `visualViewport.scale` (pinch zoom); browser zoom shows in `devicePixelRatio` (and the runtime's `tabs.getZoom`). */
export const pageViewportSchema = z.object({
  width: z.number().nonnegative(),
  height: z.number().nonnegative(),
  scrollX: z.number(),
  scrollY: z.number(),
  devicePixelRatio: z.number().positive(),
  visualScale: z.number().positive(),
});
export type PageViewport = z.infer<typeof pageViewportSchema>;

/** The topmost open modal (a `<dialog open>` shown modally, or `[aria-modal=true]`); `ref` tells one modal from another. */
export const pageModalSchema = z.object({
  open: z.boolean(),
  ref: pageRefSchema.optional(),
  name: z.string().max(500).optional(),
});
export type PageModal = z.infer<typeof pageModalSchema>;

/** A `<iframe>`/`<frame>` of this document; `frameId` comes from `runtime.getFrameId` where the browser has it. */
export const pageChildFrameSchema = z.object({
  ref: pageRefSchema,
  src: z.string().max(4000),
  name: z.string().max(500),
  /** The frame's content box (inside border and padding) in this frame's viewport CSS px: the child's (0,0). */
  contentBox: pageBoxSchema,
  frameId: z.number().int().optional(),
});
export type PageChildFrame = z.infer<typeof pageChildFrameSchema>;

export const pageRefInfoSchema = z.object({
  role: z.string().max(100),
  name: z.string().max(2000),
  tag: z.string().max(100),
  box: pageBoxSchema,
  checked: z.union([z.boolean(), z.literal('mixed')]).optional(),
  /** An `<input>`'s type (`password`, `file`, …): what makes typing into it or choosing a file always ask. */
  inputType: z.string().max(40).optional(),
  disabled: z.boolean().optional(),
  /** Text or a name a sighted user cannot see (off-screen, zero-size, transparent, hidden but named). */
  hiddenText: z.boolean().optional(),
  inViewport: z.boolean(),
  /** Set on iframe refs. */
  frame: pageChildFrameSchema.optional(),
});
export type PageRefInfo = z.infer<typeof pageRefInfoSchema>;

/** A short-lived change between observations: alert/status/live region text, a toast, a dialog that appeared. */
export const pageEventSchema = z.object({
  at: z.number(),
  kind: z.enum(['alert', 'status', 'live', 'dialog', 'toast']),
  text: z.string().max(1000),
});
export type PageEvent = z.infer<typeof pageEventSchema>;

/** A tool the page registered through WebMCP (`navigator.modelContext`) or MCP-B; page data, untrusted. */
export const pageToolSchema = z.object({
  name: z.string().min(1).max(200),
  description: z.string().max(4000),
  inputSchema: jsonValueSchema.optional(),
});
export type PageTool = z.infer<typeof pageToolSchema>;

/** What the page tree left out; `scope`/`find` fetch it. */
export const pageTruncationSchema = z.object({
  omittedLines: z.number().int().nonnegative(),
  omittedRefs: z.number().int().nonnegative(),
  /** Lines left out that were outside the viewport (the rest were inside, after the budget ran out). */
  omittedOutsideViewport: z.number().int().nonnegative(),
  reason: z.enum(['token-budget', 'node-limit']),
  hint: z.string().max(500),
});
export type PageTruncation = z.infer<typeof pageTruncationSchema>;

export const pageObservationDataSchema = z.object({
  /** Generated once per document by the script; kept across re-injection; a new one after navigation or reload. */
  documentId: z.string().min(1).max(100),
  url: z.string().max(8000),
  title: z.string().max(2000),
  capturedAt: z.number(),
  viewport: pageViewportSchema,
  /** The page tree: Playwright aria-snapshot style lines, two spaces per level (the name the model reads). */
  snapshot: z.string(),
  snapshotTokens: z.number().int().nonnegative(),
  truncated: pageTruncationSchema.nullable(),
  refs: z.record(pageRefSchema, pageRefInfoSchema),
  modal: pageModalSchema,
  /** Since the previous observation of this document (the last 50, oldest first). */
  events: z.array(pageEventSchema).max(50),
  pageTools: z.array(pageToolSchema).max(100),
  childFrames: z.array(pageChildFrameSchema).max(100),
  /** Refs whose line carries `[hidden-text]`. */
  hiddenTextRefs: z.array(pageRefSchema).max(10_000),
  /** Whether the main-world bridge (page-tools-bridge.js) answered; without it `pageTools` is empty. */
  pageToolsBridge: z.boolean(),
});
export type PageObservationData = z.infer<typeof pageObservationDataSchema>;

/** How an action finds its element. `point` is in this frame's viewport CSS px (see `lib/page-observation/screenshot-point.ts`). */
export const pageTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ref'), ref: pageRefSchema }),
  z.object({ kind: z.literal('selector'), selector: z.string().min(1).max(2000) }),
  z.object({ kind: z.literal('role'), role: z.string().min(1).max(100), name: z.string().max(2000) }),
  z.object({ kind: z.literal('point'), x: z.number(), y: z.number() }),
]);
export type PageTarget = z.infer<typeof pageTargetSchema>;

/** What was true when the action was chosen, copied by the runtime from its observation table. */
export const pageExpectationSchema = z.object({
  documentId: z.string().min(1).max(100),
  modal: pageModalSchema,
  viewport: pageViewportSchema,
  /** For a ref target (or a point's `pointRef`): that element's role, name and checked state at observation time. */
  ref: z
    .object({
      role: z.string().max(100),
      name: z.string().max(2000),
      checked: z.union([z.boolean(), z.literal('mixed')]).optional(),
      /** An input's type: a text field that became a password field since is stale (its gate was another). */
      inputType: z.string().max(40).optional(),
    })
    .optional(),
  /**
   * For point targets: the ref whose box held the point in the observation (the smallest such box). The point must
   * still fall in that element's box and hit it (or its descendant): moved → STALE_OBSERVATION, covered → COVERED.
   */
  pointRef: pageRefSchema.optional(),
});
export type PageExpectation = z.infer<typeof pageExpectationSchema>;

/** Locates an element for `visible`/`hidden`/`text-changes` waits (never a point). */
const waitLocatorSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ref'), ref: pageRefSchema }),
  z.object({ kind: z.literal('selector'), selector: z.string().min(1).max(2000) }),
  z.object({ kind: z.literal('role'), role: z.string().min(1).max(100), name: z.string().max(2000) }),
]);

const timeoutMs = z.number().int().positive().max(60_000);

/*
 * `navigation`: met when the URL changed and the DOM went quiet (same-document), or the document began unloading
 * (then the reply says `unloading: true` and the runtime waits for the load itself). `network-quiet`: no resource
 * entry (PerformanceObserver, which sees fetches when they finish) for `quietMs`; requests that never finish are
 * invisible to a content script, so the timeout bounds it.
 */
export const pageWaitForSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('url'),
    pattern: z.string().min(1).max(2000),
    mode: z.enum(['includes', 'regex']),
    timeoutMs,
  }),
  z.object({ kind: z.literal('visible'), target: waitLocatorSchema, timeoutMs }),
  z.object({ kind: z.literal('hidden'), target: waitLocatorSchema, timeoutMs }),
  z.object({ kind: z.literal('text-appears'), text: z.string().min(1).max(2000), timeoutMs }),
  z.object({ kind: z.literal('text-changes'), target: waitLocatorSchema.optional(), timeoutMs }),
  z.object({ kind: z.literal('navigation'), timeoutMs }),
  z.object({
    kind: z.literal('network-quiet'),
    quietMs: z.number().int().positive().max(10_000).optional(),
    timeoutMs,
  }),
]);
export type PageWaitFor = z.infer<typeof pageWaitForSchema>;

export const pageActionKindSchema = z.enum([
  'click',
  'type',
  'press',
  'select',
  'check',
  'scroll',
  'hover',
  'focus',
  'upload',
  'drag',
]);
export type PageActionKind = z.infer<typeof pageActionKindSchema>;

export const pageFailureCodeSchema = z.enum([
  'STALE_OBSERVATION',
  'COVERED',
  'NOT_FOUND',
  'NOT_EDITABLE',
  'WAIT_TIMEOUT',
]);
export type PageFailureCode = z.infer<typeof pageFailureCodeSchema>;

export const pageHitSchema = z.object({
  ref: pageRefSchema,
  role: z.string().max(100),
  name: z.string().max(2000),
  tag: z.string().max(100),
  box: pageBoxSchema,
});
export type PageHit = z.infer<typeof pageHitSchema>;

export const pageWaitedSchema = z.object({ condition: z.string().max(200), met: z.boolean(), ms: z.number() });

/**
 * An uncaught exception, an unhandled rejection or a `console.error` call, recorded in the page's main world.
 * `source` is `origin/path:line:column` of the script (no query string); page data, like its text.
 */
export const pageConsoleErrorSchema = z.object({
  kind: z.enum(['exception', 'rejection', 'console']),
  message: z.string().max(PAGE_EVIDENCE_LIMITS.textLength),
  source: z.string().max(PAGE_EVIDENCE_LIMITS.textLength).optional(),
});
export type PageConsoleError = z.infer<typeof pageConsoleErrorSchema>;

/** An `alert`, `confirm` or `prompt` the page opened, with its text. */
export const pageDialogSchema = z.object({
  kind: z.enum(['alert', 'confirm', 'prompt']),
  message: z.string().max(PAGE_EVIDENCE_LIMITS.textLength),
});
export type PageDialog = z.infer<typeof pageDialogSchema>;

/** What one document's main-world recorder saw since it was last read (or since the document started). */
export const pageEvidenceSchema = z.object({
  consoleErrors: z.array(pageConsoleErrorSchema).max(PAGE_EVIDENCE_LIMITS.consoleErrors),
  dialogs: z.array(pageDialogSchema).max(PAGE_EVIDENCE_LIMITS.dialogs),
  /** Recorded but left out of the lists above (past their limits). */
  droppedConsoleErrors: z.number().int().nonnegative(),
  droppedDialogs: z.number().int().nonnegative(),
});
export type PageEvidence = z.infer<typeof pageEvidenceSchema>;

/** A file the user attached, on its way into the page; `base64` is its bytes (runtime messages carry JSON). */
export const pageUploadFileSchema = z.object({
  name: z.string().min(1).max(500),
  type: z.string().max(200),
  base64: z.string().max(20_000_000),
});
export type PageUploadFile = z.infer<typeof pageUploadFileSchema>;

export const pageRequestSchema = z.discriminatedUnion('type', [
  /** Is the script here, and for which document? → `page/pong`. */
  z.object({ type: z.literal('page/ping') }),
  /**
   * Snapshot this frame → `page/observation`. `scope` limits it to a ref's subtree, `find` to lines containing the
   * text (with their ancestors); `maxTokens` bounds it (default 6,000, at most 25,000).
   */
  z.object({
    type: z.literal('page/observe'),
    scope: pageRefSchema.optional(),
    find: z.string().min(1).max(500).optional(),
    maxTokens: z.number().int().positive().max(25_000).optional(),
  }),
  /**
   * Check `expected` against the page now (staleness), hit-test, dispatch, wait → `page/act-result`.
   * `text` for type, `key` for press (`Enter`, `Tab`, `a`, …), `option` (label or value) for select, `checked` for check
   * (default true), `deltaY` for scroll (CSS px), `to` for drag: the drop target's ref in this frame and what the
   * observation said of it (a changed or gone drop target is stale, as the target is).
   */
  z.object({
    type: z.literal('page/act'),
    action: pageActionKindSchema,
    target: pageTargetSchema.optional(),
    expected: pageExpectationSchema,
    text: z.string().max(100_000).optional(),
    key: z.string().min(1).max(50).optional(),
    option: z.string().max(2000).optional(),
    checked: z.boolean().optional(),
    deltaY: z.number().optional(),
    to: z.object({ ref: pageRefSchema, role: z.string().max(100), name: z.string().max(2000) }).optional(),
    waitFor: pageWaitForSchema.optional(),
    /** For upload: the file to put into a file input (its `files`) or to drop on the target (a drop zone). */
    file: pageUploadFileSchema.optional(),
  }),
  /**
   * What went wrong in this document since the last such request (console errors, dialogs) → `page/evidence`; the
   * recorder starts again empty. The runtime sends one before a side effect (and drops the answer) and one after.
   */
  z.object({ type: z.literal('page/evidence') }),
  /** Call a page tool through the main-world bridge → `page/tool-result`. */
  z.object({
    type: z.literal('page/call-tool'),
    documentId: z.string().min(1).max(100),
    name: z.string().min(1).max(200),
    arguments: jsonValueSchema,
    timeoutMs: timeoutMs.optional(),
  }),
  /** Show (or take away) the small badge that says the agent acts in this page, with its Stop → `page/badge`. */
  z.object({ type: z.literal('page/badge'), acting: z.boolean() }),
]);
export type PageRequest = z.infer<typeof pageRequestSchema>;

export const pageBadgeReplySchema = z.object({ type: z.literal('page/badge'), acting: z.boolean() });

/** The page agent → the runtime: the person pressed Stop on the badge of this tab (the sender names the tab). */
export const pageStopRequestSchema = z.object({ type: z.literal('page/stop') });

export const pagePongSchema = z.object({
  type: z.literal('page/pong'),
  version: z.number().int(),
  documentId: z.string(),
  url: z.string().max(8000),
});

export const pageObservationReplySchema = z.object({
  type: z.literal('page/observation'),
  observation: pageObservationDataSchema,
});

export const pageActResultSchema = z.discriminatedUnion('ok', [
  z.object({
    type: z.literal('page/act-result'),
    ok: z.literal(true),
    hit: pageHitSchema,
    urlBefore: z.string().max(8000),
    urlAfter: z.string().max(8000),
    waited: pageWaitedSchema,
    trusted: z.literal(false),
    /** The document began unloading after the action: the runtime waits for the next load and re-injects. */
    unloading: z.boolean().optional(),
  }),
  z.object({
    type: z.literal('page/act-result'),
    ok: z.literal(false),
    code: pageFailureCodeSchema,
    reason: z.string().max(2000),
    /** For COVERED: what is at the point instead. */
    covering: z.object({ role: z.string(), name: z.string(), tag: z.string() }).optional(),
    /** For WAIT_TIMEOUT the action did happen: what it hit and how long it waited. */
    hit: pageHitSchema.optional(),
    urlBefore: z.string().max(8000).optional(),
    urlAfter: z.string().max(8000).optional(),
    waited: pageWaitedSchema.optional(),
    trusted: z.literal(false).optional(),
  }),
]);
export type PageActResult = z.infer<typeof pageActResultSchema>;

export const pageToolResultSchema = z.discriminatedUnion('ok', [
  z.object({ type: z.literal('page/tool-result'), ok: z.literal(true), result: jsonValueSchema }),
  z.object({
    type: z.literal('page/tool-result'),
    ok: z.literal(false),
    code: z.enum(['STALE_OBSERVATION', 'NOT_FOUND', 'NO_BRIDGE', 'TOOL_ERROR', 'WAIT_TIMEOUT']),
    reason: z.string().max(2000),
  }),
]);
export type PageToolResult = z.infer<typeof pageToolResultSchema>;

/** `bridge` is false when the main-world recorder did not answer (then `evidence` is empty). */
export const pageEvidenceReplySchema = z.object({
  type: z.literal('page/evidence'),
  bridge: z.boolean(),
  evidence: pageEvidenceSchema,
});
export type PageEvidenceReply = z.infer<typeof pageEvidenceReplySchema>;

/** The script could not parse the request (or it came from an older/newer wire). */
export const pageWireErrorSchema = z.object({ type: z.literal('page/error'), reason: z.string().max(2000) });

export const pageReplySchema = z.union([
  pagePongSchema,
  pageObservationReplySchema,
  pageActResultSchema,
  pageToolResultSchema,
  pageEvidenceReplySchema,
  pageBadgeReplySchema,
  pageWireErrorSchema,
]);
export type PageReply = z.infer<typeof pageReplySchema>;

/** The reply each request gets (or `page/error`). */
export const pageReplySchemaFor = {
  'page/ping': pagePongSchema,
  'page/observe': pageObservationReplySchema,
  'page/act': pageActResultSchema,
  'page/call-tool': pageToolResultSchema,
  'page/evidence': pageEvidenceReplySchema,
  'page/badge': pageBadgeReplySchema,
} as const;
export type PageReplyFor<Type extends PageRequest['type']> =
  z.infer<(typeof pageReplySchemaFor)[Type]> | z.infer<typeof pageWireErrorSchema>;
