import { z } from 'zod';
import { contextEventSchemas } from './context-events';
import { JOB_EVENT_TYPES, jobEventSchemas } from './job-events';
import { blobRefSchema } from './blob-ref';
import { jsonValueSchema } from './json-value';
import { MCP_APP_IMAGE_LIMITS } from './mcp-app-images';
import { MAX_APP_CONTEXTS_PER_TURN, mcpAppContextEventSchemas } from './mcp-app-context-events';
import { NOTIFY_PARTS } from './notify-events';
import { TARGET_ARTIFACT_EVENT_TYPES, targetArtifactEventSchemas } from './target-artifact-events';
import { rewindEventSchemas } from './rewind-events';
import { tokenUsageSchema } from './token-usage';
import { messageAttachmentSchema, uploadEventIds, uploadStateEventData } from './upload-events';
import { VIEW_ARTIFACT_EVENT_TYPES, viewArtifactEventSchemas } from './view-artifact-events';

/** The version the runtime stamps on every event; a stored row of an older one is upgraded by `event-migrations.ts`. */
export const AGENT_EVENT_SCHEMA_VERSION = 9;

const id = z.string().min(1).max(200);

const envelope = {
  schemaVersion: z.literal(AGENT_EVENT_SCHEMA_VERSION),
  sessionId: id,
  /** Durable events own their seq; a transient event carries the seq of the durable event it follows. */
  seq: z.number().int().nonnegative(),
  time: z.number(),
  durable: z.boolean(),
};

const turnIds = { turnId: id };
const stepIds = { turnId: id, stepId: id, attemptId: id };
const itemIds = { ...stepIds, itemId: id };
const toolIds = { turnId: id, toolCallId: id };

function event<TType extends string, TShape extends z.ZodRawShape, TData extends z.ZodType>(
  type: TType,
  ids: TShape,
  data: TData,
) {
  return z.object({ ...envelope, ...ids, type: z.literal(type), data });
}

const toolOutputSchema = jsonValueSchema;
/** Why a request stopped being answerable: its time ran out, its turn ended, or a restart lost the context it was asked in. */
const expiryCause = z.enum(['timeout', 'turn-ended', 'context-lost']);
/** `budget` was added in version 3: the turn stopped at a safe point because a budget was reached. */
const finalTurnReason = z.enum(['stop', 'step-cap', 'repeated-call', 'error', 'length', 'other', 'budget']);
/** What a turn command asks for; `pause` and `resume` were added in version 4. */
export const turnCommandKind = z.enum(['steer', 'cancel', 'pause', 'resume']);
export type TurnCommandKind = z.infer<typeof turnCommandKind>;

export const agentEventSchema = z.discriminatedUnion('type', [
  /** `forkOf` (version 5): the conversation and turn this one was forked from, with the history up to that turn. */
  event(
    'session/created',
    {},
    z.object({ title: z.string().max(500), forkOf: z.object({ sessionId: id, turnId: id }).optional() }),
  ),
  event('session/renamed', {}, z.object({ title: z.string().max(500) })),

  event(
    'turn/started',
    turnIds,
    /**
     * `overBudget`: the user confirmed starting this one turn although a budget was reached. `attachments` was
     * added within version 3: an older build strips it and shows the text alone. `parentTurnId` (version 5) is the
     * turn before this one on its branch, null for a first message; a row without it follows the turn that was
     * active when it started, as every turn of a version-4 log does. `answerOf` (version 5): this turn answers the
     * message of that turn again (a regeneration), with the same text and files. `retriesToolCall` (version 6): the
     * turn runs that failed tool call again (see `tool/retried`); its text is the note the model reads.
     * `retriesStep` (version 7): the turn runs again the model request whose attempt `attemptId` failed in the turn
     * `turnId` (its parent): it has no message of its own (`text` is empty), so its first request is that turn's
     * history through its last committed tool results, and no call that completed there runs again.
     * `appContexts` (version 8): the MCP App contexts (`mcp-app/context`) the message carries to the model.
     */
    z.object({
      userItemId: id,
      text: z.string(),
      retryOf: id.optional(),
      parentTurnId: id.nullable().optional(),
      answerOf: id.optional(),
      overBudget: z.literal(true).optional(),
      attachments: z.array(messageAttachmentSchema).max(20).optional(),
      retriesToolCall: id.optional(),
      retriesStep: z.object({ turnId: id, attemptId: id }).optional(),
      appContexts: z.array(id).max(MAX_APP_CONTEXTS_PER_TURN).optional(),
    }),
  ),
  /** Version 5: the branch shown and sent to the model is now the one that ends at `turnId`. */
  event('branch/switched', turnIds, z.object({})),
  event('turn/completed', turnIds, z.object({ reason: finalTurnReason })),
  event('turn/aborted', { ...turnIds, commandId: id.optional() }, z.object({ reason: z.string().max(2000) })),
  event('turn/interrupted', turnIds, z.object({ reason: z.string().max(2000) })),
  /** Version 4: the turn stopped at a safe point for the person to act; it stays open until resumed or stopped. */
  event('turn/paused', { ...turnIds, commandId: id }, z.object({ reason: z.string().max(2000) })),
  /**
   * Version 4: the turn goes on after a pause. `note` tells the model the person acted; `observation` is the page
   * as it was at the resume (a page tool's output), when the conversation uses the page.
   */
  event(
    'turn/resumed',
    { ...turnIds, commandId: id },
    z.object({ note: z.string().max(4000), observation: jsonValueSchema.optional() }),
  ),

  event('step/started', stepIds, z.object({ index: z.number().int().nonnegative() })),
  event(
    'step/completed',
    stepIds,
    /** `usage` was added within version 2: an older build's schema strips it and reads the rest. */
    z.object({
      finishReason: z.string().max(100),
      usage: tokenUsageSchema.optional(),
      /** The model the endpoint was asked for, so its price applies (added in version 3). */
      model: z.string().max(200).optional(),
      /** The tokenizer's count of the prompt this step sent, before calibration (added in version 4). */
      promptEstimate: z.number().int().nonnegative().optional(),
      /** Milliseconds from step/started to the first text, reasoning or tool call (added in version 6). */
      firstOutputMs: z.number().nonnegative().optional(),
    }),
  ),

  event('assistant/delta', itemIds, z.object({ index: z.number().int().nonnegative(), text: z.string() })),
  event('assistant/completed', itemIds, z.object({ text: z.string() })),
  event('assistant/interrupted', itemIds, z.object({ text: z.string(), reason: z.string().max(2000) })),
  event('reasoning/delta', itemIds, z.object({ index: z.number().int().nonnegative(), text: z.string() })),
  event('reasoning/completed', itemIds, z.object({ text: z.string() })),
  event('reasoning/interrupted', itemIds, z.object({ text: z.string(), reason: z.string().max(2000) })),

  event(
    'tool/input-delta',
    { ...toolIds, stepId: id },
    z.object({ toolName: z.string(), index: z.number().int().nonnegative(), delta: z.string() }),
  ),
  event(
    'tool/requested',
    { ...toolIds, stepId: id },
    z.object({ toolName: z.string(), input: jsonValueSchema, targetId: z.string().optional() }),
  ),
  event('tool/started', toolIds, z.object({ targetId: z.string().optional() })),
  event('tool/completed', toolIds, z.object({ output: toolOutputSchema, durationMs: z.number().nonnegative() })),
  event(
    'tool/failed',
    toolIds,
    z.object({ error: z.string().max(4000), output: toolOutputSchema, durationMs: z.number().nonnegative() }),
  ),
  event('tool/unknown', toolIds, z.object({ reason: z.string().max(2000) })),
  /** The call was never run: its approval was denied or expired. */
  event('tool/denied', toolIds, z.object({ reason: z.string().max(2000), output: toolOutputSchema })),
  /**
   * Version 6: the user retried the failed call `toolCallId` (the first attempt's id) in the turn `turnId`. The new
   * attempt runs as the call `attemptId` (its own tool/* events, approval and at-most-once), attempt number `attempt`.
   */
  event(
    'tool/retried',
    { ...toolIds, attemptId: id },
    z.object({ attempt: z.number().int().min(2), previousAttemptId: id }),
  ),

  event(
    'ask/requested',
    { turnId: id, requestId: id, toolCallId: id.optional() },
    z.object({ question: z.string(), answerSchema: jsonValueSchema, expiresAt: z.number().optional() }),
  ),
  event('ask/answered', { turnId: id, requestId: id }, z.object({ answer: jsonValueSchema })),
  event(
    'ask/expired',
    { turnId: id, requestId: id },
    z.object({ reason: z.string().max(2000), cause: expiryCause.optional() }),
  ),
  event(
    'approval/requested',
    { turnId: id, requestId: id, toolCallId: id },
    z.object({
      argumentsHash: z.string(),
      summary: z.string(),
      expiresAt: z.number(),
      toolName: z.string().max(200).optional(),
      targetId: z.string().max(200).optional(),
      /** A page tool asks for access to this site: the Allow click asks the browser for its host permission. */
      siteOrigin: z.string().max(500).optional(),
      /** Version 9: the stored images the card shows (an MCP App's message, which carries them once allowed). */
      images: z.array(blobRefSchema).min(1).max(MCP_APP_IMAGE_LIMITS.message.images).optional(),
    }),
  ),
  event(
    'approval/decided',
    { turnId: id, requestId: id, toolCallId: id },
    z.object({ decision: z.enum(['allow', 'deny']), scope: z.enum(['once', 'target-session']).optional() }),
  ),
  event(
    'approval/expired',
    { turnId: id, requestId: id, toolCallId: id },
    z.object({ reason: z.string().max(2000), cause: expiryCause.optional() }),
  ),

  event(
    'command/state',
    { commandId: id, turnId: id },
    z.object({
      kind: turnCommandKind,
      state: z.enum(['submitted', 'accepted', 'queued', 'applied', 'stale', 'rejected', 'cancelled']),
      text: z.string().optional(),
    }),
  ),

  event(
    'notification',
    { notificationId: id },
    z.object({ level: z.enum(['info', 'warning', 'error']), message: z.string().max(4000) }),
  ),
  event('notify/job-finished', NOTIFY_PARTS.jobFinished.ids, NOTIFY_PARTS.jobFinished.data),
  event('notify/budget-reached', NOTIFY_PARTS.budgetReached.ids, NOTIFY_PARTS.budgetReached.data),
  event('notify/security-warning', NOTIFY_PARTS.securityWarning.ids, NOTIFY_PARTS.securityWarning.data),
  event('notify/access-revoked', NOTIFY_PARTS.accessRevoked.ids, NOTIFY_PARTS.accessRevoked.data),
  event('notify/dismissed', NOTIFY_PARTS.dismissed.ids, NOTIFY_PARTS.dismissed.data),
  event('presence/typing', {}, z.object({ active: z.boolean() })),
  event(
    'stream/error',
    { turnId: id, attemptId: id },
    z.object({ message: z.string().max(4000), code: z.string().max(100), retryable: z.boolean() }),
  ),
  event(
    'stream/retrying',
    { turnId: id, attemptId: id },
    z.object({ delayMs: z.number().nonnegative(), until: z.number(), reason: z.string().max(2000) }),
  ),

  event('upload/state', uploadEventIds, uploadStateEventData),
  event(
    'blob/referenced',
    { blobId: id },
    z.object({ mime: z.string(), size: z.number().int().nonnegative(), sha256: z.string() }),
  ),
  event(
    'artifact/referenced',
    { artifactId: id },
    z.object({
      version: z.number().int().nonnegative(),
      kind: z.enum(['fixed', 'declarative-ui', 'html-app']),
      blobId: id,
      sha256: z.string(),
    }),
  ),
  ...jobEventSchemas(envelope, id),
  ...viewArtifactEventSchemas(envelope, id),
  ...targetArtifactEventSchemas(envelope, id),
  ...contextEventSchemas(envelope, id),
  ...rewindEventSchemas(envelope, id),
  ...mcpAppContextEventSchemas(envelope, id),
]);

export type AgentEvent = z.infer<typeof agentEventSchema>;
export type AgentEventType = AgentEvent['type'];
export type AgentEventOf<TType extends AgentEventType> = Extract<AgentEvent, { type: TType }>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** What a producer proposes; the runtime stamps `seq`, `durable` and `schemaVersion`. */
export type AgentEventDraft = DistributiveOmit<AgentEvent, 'seq' | 'durable' | 'schemaVersion'>;

/** The one place that decides which events are kept in the log. */
export const EVENT_DURABILITY: Record<AgentEventType, boolean> = {
  'session/created': true,
  'session/renamed': true,
  'turn/started': true,
  'branch/switched': true,
  'turn/completed': true,
  'turn/aborted': true,
  'turn/interrupted': true,
  'turn/paused': true,
  'turn/resumed': true,
  'step/started': true,
  'step/completed': true,
  'assistant/delta': false,
  'assistant/completed': true,
  'assistant/interrupted': true,
  'reasoning/delta': false,
  'reasoning/completed': true,
  'reasoning/interrupted': true,
  'tool/input-delta': false,
  'tool/requested': true,
  'tool/started': true,
  'tool/completed': true,
  'tool/failed': true,
  'tool/unknown': true,
  'tool/denied': true,
  'tool/retried': true,
  'ask/requested': true,
  'ask/answered': true,
  'ask/expired': true,
  'approval/requested': true,
  'approval/decided': true,
  'approval/expired': true,
  'command/state': true,
  notification: true,
  'notify/job-finished': true,
  'notify/budget-reached': true,
  'notify/security-warning': true,
  'notify/access-revoked': true,
  'notify/dismissed': true,
  'presence/typing': false,
  'stream/error': true,
  'stream/retrying': false,
  'upload/state': true,
  'blob/referenced': true,
  'artifact/referenced': true,
  'job/created': true,
  'job/running': true,
  'job/output': false,
  'job/stopping': true,
  'job/completed': true,
  'job/failed': true,
  'job/killed': true,
  'job/orphaned': true,
  'job-command/state': true,
  'artifact/shown': true,
  'artifact/action': true,
  'artifact/created': true,
  'artifact/validating': false,
  'artifact/ready': true,
  'artifact/rejected': true,
  'artifact/superseded': true,
  'artifact/permission-granted': true,
  'artifact/permission-revoked': true,
  'context/compacted': true,
  'rewind/applied': true,
  'mcp-app/context': true,
  'rewind/completed': true,
};

export function isDurableType(type: AgentEventType): boolean {
  return EVENT_DURABILITY[type];
}

/** Events only the runtime writes (tool outcomes, answers, decisions, command states): a client may not append them. */
const RUNTIME_WRITTEN = new Set<AgentEventType>([
  'turn/paused',
  'turn/resumed',
  'tool/started',
  'tool/completed',
  'tool/failed',
  'tool/unknown',
  'tool/denied',
  'tool/retried',
  'ask/requested',
  'ask/answered',
  'ask/expired',
  'approval/requested',
  'approval/decided',
  'approval/expired',
  'command/state',
  'notify/job-finished',
  'notify/budget-reached',
  'notify/security-warning',
  'notify/access-revoked',
  'rewind/applied',
  'mcp-app/context',
  'rewind/completed',
  ...JOB_EVENT_TYPES,
  ...VIEW_ARTIFACT_EVENT_TYPES,
  ...TARGET_ARTIFACT_EVENT_TYPES,
]);

export function isClientWritable(type: string): boolean {
  return !RUNTIME_WRITTEN.has(type as AgentEventType);
}
