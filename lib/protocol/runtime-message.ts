import { z } from 'zod';
import { mcpAppGrantSchema } from './mcp-app-grant';
import { rewindModeSchema } from './rewind-events';
import { mcpAppLoadSchema } from './mcp-app-wire';
import { mcpAppRequestSchema, mcpAppToolAnswerSchema, mcpAppToolCallSchema } from './mcp-app-runtime-wire';
import { currentPageRequestSchema } from './current-page';
import { agentEventSchema } from './agent-event';
import { jsonObjectSchema, jsonValueSchema } from './json-value';
import { stageActionTypeSchema, stageToTargetMessageSchema } from './target-wire';
import { targetArtifactLoadSchema } from './target-artifact-wire';
import { targetGrantSchema } from './target-artifact-events';
import { sessionSnapshotSchema, turnSliceSchema } from './session-snapshot';

const id = z.string().min(1).max(200);

/** A draft is an event without the fields the runtime stamps; it is fully validated once stamped. */
export const agentEventDraftSchema = z
  .object({ type: z.string(), sessionId: id, time: z.number(), data: z.unknown() })
  .passthrough();

/** The largest page of events one `events/read` answers with. */
export const MAX_READ_EVENTS = 10_000;

export const runtimeRequestSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('events/append'),
    sessionId: id,
    batchId: id,
    events: z.array(agentEventDraftSchema).max(5000),
  }),
  z.object({
    type: z.literal('events/read'),
    sessionId: id,
    afterSeq: z.number().int().nonnegative(),
    /** At most this many events, in seq order: a long log is read a page at a time (see `readAllEvents`). */
    limit: z.number().int().positive().max(MAX_READ_EVENTS).optional(),
  }),
  z.object({
    type: z.literal('tool/execute'),
    sessionId: id,
    turnId: id,
    stepId: id,
    toolCallId: id,
    toolName: z.string().max(200),
    input: jsonValueSchema,
  }),
  /** Runs a failed call (named by its first attempt) again as the attempt `attemptId`, in the open turn `turnId`. */
  z.object({ type: z.literal('tool/retry'), sessionId: id, turnId: id, toolCallId: id, attemptId: id }),
  z.object({ type: z.literal('sessions/list') }),
  z.object({ type: z.literal('session/delete'), sessionId: id }),
  /** A new conversation that starts with this one's branch up to `turnId`. */
  z.object({ type: z.literal('session/fork'), sessionId: id, turnId: id }),
  /**
   * Imports an exported conversation the panel staged in the blob store: its `conversation.json` (by blob id)
   * and files under `stagingId`, a session id no conversation has.
   */
  z.object({
    type: z.literal('session/import'),
    stagingId: id,
    documentBlobId: z.string().regex(/^[0-9a-f]{64}$/),
  }),
  /** What a rewind to just before `turnId`'s message would restore, and what it would not undo. */
  z.object({ type: z.literal('session/rewind-preview'), sessionId: id, turnId: id }),
  /** Rewinds to just before `turnId`'s message, restoring what `mode` says (a new branch; nothing is deleted). */
  z.object({
    type: z.literal('session/rewind'),
    sessionId: id,
    turnId: id,
    mode: rewindModeSchema,
    /** The panel's id for this rewind: sent again (the worker stopped under it), it is the same rewind. */
    rewindId: id,
  }),
  /** Full-text search over every conversation's messages, tool calls and page titles. */
  z.object({
    type: z.literal('search/query'),
    query: z.string().max(500),
    limit: z.number().int().positive().max(100).optional(),
  }),
  z.object({ type: z.literal('targets/list') }),
  /** Manual control from the toolbar: the same tools and validation as the model's calls, outside any chat. */
  z.object({ type: z.literal('tool/manual'), toolName: z.string().max(200), input: jsonValueSchema }),
  z.object({ type: z.literal('targets/register'), entryUrl: z.url({ protocol: /^https?$/ }), manifest: z.unknown() }),
  z.object({ type: z.literal('targets/unregister'), targetId: id }),
  z.object({
    type: z.literal('approval/decide'),
    sessionId: id,
    turnId: id,
    toolCallId: id,
    requestId: id,
    decision: z.enum(['allow', 'deny']),
    scope: z.enum(['once', 'target-session']).default('once'),
  }),
  z.object({ type: z.literal('ask/answer'), sessionId: id, turnId: id, requestId: id, answer: jsonValueSchema }),
  z.object({
    type: z.literal('command/submit'),
    sessionId: id,
    turnId: id,
    commandId: id,
    kind: z.enum(['steer', 'cancel', 'pause']),
    text: z.string().min(1).max(20_000).optional(),
  }),
  /** The turn's driver, at a safe point: whether a pause is queued for it (then recorded as applied, the turn paused). */
  z.object({ type: z.literal('pause/take'), sessionId: id, turnId: id }),
  /** The person resumes a paused turn; `observe`: the conversation uses the page, so a fresh observation goes with it. */
  z.object({ type: z.literal('turn/resume'), sessionId: id, turnId: id, commandId: id, observe: z.boolean() }),
  z.object({ type: z.literal('command/status'), sessionId: id, commandId: id }),
  /** The user takes back a steer before it is applied. */
  z.object({ type: z.literal('command/withdraw'), sessionId: id, commandId: id }),
  /** The turn's driver, at a safe point: the steers queued for it, recorded as applied. */
  z.object({ type: z.literal('steer/take'), sessionId: id, turnId: id }),
  /** Whether a budget is reached: before a new turn (no turnId), or at a safe point of the running one. */
  z.object({ type: z.literal('budget/check'), sessionId: id, turnId: id.optional() }),
  // MCP glue: the connected MCP servers' tools, read at turn start.
  z.object({ type: z.literal('mcp/tools') }),
  // MCP glue: the enabled servers' prompts (the composer's `/` commands), and one filled in as message text.
  z.object({ type: z.literal('mcp/prompts') }),
  z.object({
    type: z.literal('mcp/prompt'),
    serverId: z.string().min(1).max(32),
    name: z.string().min(1).max(200),
    arguments: z.record(z.string().max(200), z.string().max(20_000)),
  }),
  // MCP glue: the enabled servers' resources (the composer's attach menu), and one read to attach as a file.
  z.object({ type: z.literal('mcp/resources') }),
  /** `listed`: the resource as the menu listed it (its name and type), so that it is not listed again to attach it. */
  z.object({
    type: z.literal('mcp/resource'),
    serverId: z.string().min(1).max(32),
    uri: z.string().min(1).max(4000),
    listed: z.object({ name: z.string().max(1000), mimeType: z.string().max(200).optional() }).optional(),
  }),
  /** The origins the user granted MCP Apps (the panel's and Settings' lists). */
  z.object({ type: z.literal('mcp-app/grants') }),
  /** The user grants or revokes one origin to one server's app; the app open in the stage reopens with it. */
  z.object({ type: z.literal('mcp-app/grant'), grant: mcpAppGrantSchema, granted: z.boolean() }),
  /** Stop on a job card: a cancel command aimed at one job. */
  z.object({ type: z.literal('job/cancel'), sessionId: id, jobId: id, commandId: id }),
  /** A form's button pressed in the panel: checked by the runtime against the question's form before it answers it. */
  z.object({
    type: z.literal('artifact/act'),
    sessionId: id,
    turnId: id,
    requestId: id,
    artifactId: id,
    version: z.number().int().positive(),
    actionId: id,
    payload: jsonValueSchema,
  }),
  /** The user restores an older version of an authored target (the popup): it becomes a new current version. */
  z.object({
    type: z.literal('target-artifact/restore'),
    sessionId: id,
    artifactId: id,
    version: z.number().int().positive(),
  }),
  /** The user opens an older version of an authored target to look at: a preview the model's tools do not drive. */
  z.object({
    type: z.literal('target-artifact/open-version'),
    sessionId: id,
    artifactId: id,
    version: z.number().int().positive(),
  }),
  /** The user grants or revokes one permission an authored target asks for; an open one reloads with it. */
  z.object({
    type: z.literal('target-artifact/grant'),
    sessionId: id,
    artifactId: id,
    grant: targetGrantSchema,
    granted: z.boolean(),
  }),
  /** "Save as target folder": a zip of the current version, as base64 (runtime messages are JSON). */
  z.object({ type: z.literal('target-artifact/export'), sessionId: id, artifactId: id }),
  /** The page the page tools act on, for the line above the composer; it also tells the runtime the panel's window. */
  currentPageRequestSchema,
]);
export type RuntimeRequest = z.infer<typeof runtimeRequestSchema>;

export const runtimeResponseSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export type RuntimeResponse = z.infer<typeof runtimeResponseSchema>;

/**
 * Messages on the `calls` port, any extension page → runtime: runtime requests carried over one long-lived port
 * instead of a `runtime.sendMessage` each. The request itself is checked by `runtimeRequestSchema` when answered.
 */
export const callPortRequestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('call/request'), callId: id, request: z.unknown() }),
]);
export type CallPortRequest = z.infer<typeof callPortRequestSchema>;

/** Messages on the `calls` port, runtime → the page that asked: the response to one request, by its `callId`. */
export const callPortReplySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('call/response'), callId: id, response: runtimeResponseSchema }),
]);
export type CallPortReply = z.infer<typeof callPortReplySchema>;

/** Messages on the `events` port, side panel → runtime. */
export const subscriberMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('events/subscribe'), sessionId: id, generation: z.number().int().nonnegative() }),
  z.object({ type: z.literal('turn/own'), sessionId: id, turnId: id }),
  z.object({ type: z.literal('turn/release'), sessionId: id, turnId: id }),
  /** The conversation this panel shows now, and whether its page is visible (`document.visibilityState`). */
  z.object({ type: z.literal('panel/visibility'), sessionId: id, visible: z.boolean() }),
  /** Older turns for the reader scrolling up: the `limit` turns before position `before`, answered by `events/turns`. */
  z.object({
    type: z.literal('turns/before'),
    sessionId: id,
    generation: z.number().int().nonnegative(),
    before: z.number().int().nonnegative(),
    limit: z.number().int().min(1).max(500),
  }),
]);
export type SubscriberMessage = z.infer<typeof subscriberMessageSchema>;

/** Messages on the `events` port, runtime → side panel. */
export const publisherMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('events/snapshot'),
    sessionId: id,
    generation: z.number().int().nonnegative(),
    snapshotSeq: z.number().int().nonnegative(),
    events: z.array(agentEventSchema),
    /** The reduced state of the log before `events`, when the runtime has a snapshot of it. */
    state: sessionSnapshotSchema.optional(),
  }),
  z.object({ type: z.literal('events/live'), generation: z.number().int().nonnegative(), event: agentEventSchema }),
  /** A page of older turns, reduced up to `lastSeq` and sent in order with the live events. */
  z.object({
    type: z.literal('events/turns'),
    sessionId: id,
    generation: z.number().int().nonnegative(),
    before: z.number().int().nonnegative(),
    olderTurns: z.number().int().nonnegative(),
    lastSeq: z.number().int().nonnegative(),
    turns: z.array(turnSliceSchema),
  }),
  /** A message this subscriber sent could not be answered; with the session and generation when it was theirs. */
  z.object({
    type: z.literal('events/error'),
    message: z.string(),
    sessionId: id.optional(),
    generation: z.number().int().nonnegative().optional(),
  }),
  /** A cancel command for a turn this subscriber drives. */
  z.object({ type: z.literal('turn/cancel'), turnId: id, commandId: id }),
]);
export type PublisherMessage = z.infer<typeof publisherMessageSchema>;

/** Messages on the `targets` port, runtime → toolbar popup: what the active target has in effect now. */
export const targetsPortMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('target/state'), targetId: id, state: jsonObjectSchema }),
]);
export type TargetsPortMessage = z.infer<typeof targetsPortMessageSchema>;

/** Messages on the `stage` port, runtime → stage tab. */
export const stageCommandMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('stage/open'),
    jobId: id,
    callKey: z.string().min(1).max(500).optional(),
    targetId: id,
    title: z.string().max(200),
    url: z.url(),
    /** An authored target: `url` is the artifact host page, which gets these files from the stage. */
    artifact: targetArtifactLoadSchema.optional(),
    /** An older version the user opened to look at: the stage says so, and the runtime sends it no commands. */
    preview: z.boolean().optional(),
    /** An MCP App: `url` is the MCP App host page, which gets this document from the stage. */
    mcpApp: mcpAppLoadSchema.optional(),
  }),
  /** The runtime's answer to an MCP App's own `tools/call` (`stage/app-tool-call`) or request (`stage/app-request`). */
  z.object({
    type: z.literal('stage/app-tool-result'),
    targetId: id,
    requestId: id,
    answer: mcpAppToolAnswerSchema,
  }),
  z.object({
    type: z.literal('stage/send'),
    jobId: id,
    callKey: z.string().min(1).max(500).optional(),
    targetId: id,
    message: stageToTargetMessageSchema,
  }),
  /** Another stage tab took over: this one stops taking commands, so two stages never fight over the active target. */
  z.object({ type: z.literal('stage/retire') }),
]);
export type StageCommandMessage = z.infer<typeof stageCommandMessageSchema>;

/** Messages on the `stage` port, stage tab → runtime. */
export const stageReportMessageSchema = z.discriminatedUnion('type', [
  /** `recent` lists what the stage did for recent tool calls, so a restarted runtime can learn their outcome. */
  z.object({
    type: z.literal('stage/hello'),
    activeTargetId: z.string().optional(),
    /** The active target is an older version shown as a preview. */
    previewing: z.boolean().optional(),
    /** The active target is an MCP App (its opening is in the log; see `McpAppCalls`). */
    activeApp: z.boolean().optional(),
    recent: z
      .array(
        z.object({
          callKey: z.string().min(1).max(500),
          type: stageActionTypeSchema,
          targetId: id,
          state: jsonObjectSchema,
        }),
      )
      .max(200)
      .default([]),
    /** Every call this stage has received a command for, finished or not, and when this stage page started. */
    received: z.array(z.string().min(1).max(500)).max(1000).default([]),
    startedAt: z.number().default(0),
  }),
  z.object({ type: z.literal('stage/state'), jobId: id, state: jsonObjectSchema }),
  z.object({ type: z.literal('stage/error'), jobId: id, error: z.string().max(4000) }),
  z.object({ type: z.literal('stage/target-state'), targetId: id, state: jsonObjectSchema }),
  /** An error the target reported on its own (uncaught in its frame, or `reportError`), not in answer to a command. */
  z.object({ type: z.literal('stage/target-error'), targetId: id, message: z.string().max(4000) }),
  /** An MCP App in the stage calls a tool of its server; the runtime runs it with the normal approvals. */
  z.object({
    type: z.literal('stage/app-tool-call'),
    targetId: id,
    requestId: id,
    call: mcpAppToolCallSchema,
  }),
  /** An MCP App in the stage asks for a message, a link or a resource; answered as a tool call is. */
  z.object({
    type: z.literal('stage/app-request'),
    targetId: id,
    requestId: id,
    request: mcpAppRequestSchema,
  }),
  /** The content security policy of an authored target's frame blocked something it tried. */
  z.object({
    type: z.literal('stage/target-csp-violation'),
    targetId: id,
    directive: z.string().max(200),
    blockedUrl: z.string().max(2000),
  }),
]);
export type StageReportMessage = z.infer<typeof stageReportMessageSchema>;
