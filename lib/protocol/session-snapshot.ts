import { z } from 'zod';
import { AGENT_EVENT_SCHEMA_VERSION, turnCommandKind } from './agent-event';
import { rewindModeSchema } from './rewind-events';
import { jsonObjectSchema, jsonValueSchema } from './json-value';
import { NOTIFY_FACT_TYPES } from './notify-events';
import { blobRefSchema } from './blob-ref';
import { outputSummarySchema } from './job-events';
import { tokenUsageSchema } from './token-usage';
import { UPLOAD_REJECTIONS, UPLOAD_STATES, messageAttachmentSchema } from './upload-events';
import { viewArtifactContentSchema } from './view-artifact-events';

/**
 * Raise it whenever the reducer or the client state's shape changes: a snapshot of another format is rebuilt
 * from the log, never trusted. The event schema version is part of it, since a migration changes what is reduced.
 */
export const SNAPSHOT_VERSION = 8;
export const SNAPSHOT_FORMAT = `${SNAPSHOT_VERSION}/${AGENT_EVENT_SCHEMA_VERSION}`;

const text = z.string();
const entrySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('item'), key: text }),
  z.object({ kind: z.literal('tool'), toolCallId: text }),
  z.object({ kind: z.literal('error'), index: z.number().int().nonnegative() }),
  z.object({ kind: z.literal('command'), commandId: text }),
]);
export const turnSchema = z.object({
  turnId: text,
  userItemId: text,
  userText: text,
  status: z.enum(['running', 'paused', 'completed', 'aborted', 'interrupted']),
  startedAt: z.number(),
  endedAt: z.number().optional(),
  reason: text.optional(),
  retryOf: text.optional(),
  retriesToolCall: text.optional(),
  retriesStep: z.object({ turnId: text, attemptId: text }).optional(),
  entries: z.array(entrySchema),
  errors: z.array(z.object({ attemptId: text, message: text, code: text })),
  retry: z.object({ until: z.number(), delayMs: z.number(), reason: text }).optional(),
  usage: tokenUsageSchema.optional(),
  usageByModel: z.record(text, tokenUsageSchema).optional(),
  attachments: z.array(messageAttachmentSchema).optional(),
  appContextIds: z.array(text).optional(),
});
export const itemSchema = z.object({
  key: text,
  itemId: text,
  attemptId: text,
  turnId: text,
  stepId: text,
  kind: z.enum(['assistant', 'reasoning']),
  text,
  status: z.enum(['streaming', 'completed', 'interrupted']),
  deltaCount: z.number().int().nonnegative(),
  reason: text.optional(),
});
export const toolCallSchema = z.object({
  toolCallId: text,
  turnId: text,
  stepId: text.optional(),
  toolName: text,
  targetId: text.optional(),
  argumentsPreview: text,
  previewCount: z.number().int().nonnegative(),
  input: jsonValueSchema.optional(),
  status: z.enum(['streaming', 'requested', 'running', 'done', 'failed', 'unknown', 'denied']),
  output: jsonValueSchema.optional(),
  error: text.optional(),
  startedAt: z.number().optional(),
  durationMs: z.number().optional(),
  retryOf: text.optional(),
  attempt: z.number().int().optional(),
});
export const requestSchema = z.object({
  requestId: text,
  turnId: text,
  kind: z.enum(['ask', 'approval']),
  toolCallId: text.optional(),
  status: z.enum(['pending', 'answered', 'allowed', 'denied', 'expired']),
  summary: text,
  expiresAt: z.number().optional(),
  targetId: text.optional(),
  siteOrigin: text.optional(),
  images: z.array(blobRefSchema).optional(),
  answerSchema: jsonValueSchema.optional(),
  answer: jsonValueSchema.optional(),
  scope: z.enum(['once', 'target-session']).optional(),
  reason: text.optional(),
  cause: z.enum(['timeout', 'turn-ended', 'context-lost']).optional(),
});
export const commandSchema = z.object({
  commandId: text,
  turnId: text,
  kind: turnCommandKind,
  state: text,
  text: text.optional(),
  observation: jsonValueSchema.optional(),
});
const factReferenceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('job'), jobId: text }),
  z.object({ kind: z.literal('budget'), budget: z.enum(['conversation', 'day']) }),
  z.object({
    kind: z.literal('security'),
    warning: z.enum(['blocked-request', 'injection-flagged']),
    toolCallId: text.optional(),
    targetId: text.optional(),
    url: text.optional(),
  }),
  z.object({ kind: z.literal('site'), origin: text }),
]);
const factSchema = z.object({
  notificationId: text,
  type: z.enum(NOTIFY_FACT_TYPES),
  seq: z.number().int().nonnegative(),
  time: z.number(),
  level: z.enum(['info', 'warning']),
  message: text,
  turnId: text.optional(),
  reference: factReferenceSchema,
  dismissed: z.boolean(),
});
const uploadSchema = z.object({
  uploadId: text,
  partId: text,
  state: z.enum(UPLOAD_STATES),
  name: text,
  size: z.number().int().nonnegative(),
  declaredType: text.optional(),
  blob: blobRefSchema.optional(),
  turnId: text.optional(),
  rejection: z.enum(UPLOAD_REJECTIONS).optional(),
  reason: text.optional(),
  selectedAt: z.number(),
});
const jobSchema = z.object({
  jobId: text,
  turnId: text.optional(),
  toolCallId: text.optional(),
  state: z.enum(['created', 'running', 'stopping', 'completed', 'failed', 'killed', 'orphaned']),
  code: text,
  background: z.boolean(),
  timeoutMs: z.number(),
  createdAt: z.number(),
  endedAt: z.number().optional(),
  live: z.array(z.object({ from: z.number(), to: z.number(), text })),
  totalBytes: z.number(),
  output: outputSummarySchema.optional(),
  result: text.optional(),
  resultBytes: z.number().optional(),
  failure: z.object({ reason: text, message: text, stack: text.optional() }).optional(),
  killedBy: z.enum(['user', 'turn-cancelled']).optional(),
  orphanedBecause: text.optional(),
});

const viewArtifactSchema = z.object({
  artifactId: text,
  versions: z.array(
    z.object({
      version: z.number().int().positive(),
      title: text,
      content: viewArtifactContentSchema,
      toolCallId: text,
      turnId: text,
      time: z.number(),
    }),
  ),
});

/** The reduced state of a session's durable log up to `snapshotSeq` (no connection bookkeeping). */
export const snapshotStateSchema = z.object({
  sessionId: text,
  title: text,
  lastSeq: z.number().int().nonnegative(),
  turnOrder: z.array(text),
  turns: z.record(text, turnSchema),
  branches: z.object({
    parents: z.record(text, text.nullable()),
    children: z.record(text, z.array(text)),
    answerOf: z.record(text, text),
    leaf: text.nullable(),
    rewound: z.object({ turnId: text, fromLeaf: text.nullable(), mode: rewindModeSchema }).optional(),
  }),
  items: z.record(text, itemSchema),
  streaming: z.record(text, itemSchema),
  toolCalls: z.record(text, toolCallSchema),
  requests: z.record(text, requestSchema),
  commands: z.record(text, commandSchema),
  notifications: z.array(z.object({ notificationId: text, level: text, message: text })),
  facts: z.record(text, factSchema),
  uploads: z.record(text, uploadSchema),
  jobs: z.record(text, jobSchema),
  viewArtifacts: z.record(text, viewArtifactSchema),
  usage: tokenUsageSchema.optional(),
  usageByModel: z.record(text, tokenUsageSchema).optional(),
  /** How many turns come before the first one in `turnOrder`: the panel asks for them by page. */
  olderTurns: z.number().int().nonnegative(),
  appContexts: z
    .record(
      text,
      z.object({
        contextId: text,
        seq: z.number().int().nonnegative(),
        time: z.number(),
        targetId: text,
        app: text,
        serverName: text,
        text,
        structuredContent: jsonObjectSchema.optional(),
        images: z.array(blobRefSchema).optional(),
        marker: text,
      }),
    )
    .optional(),
  compactions: z
    .array(
      z.object({
        compactionId: text,
        seq: z.number().int().nonnegative(),
        time: z.number(),
        throughTurnId: text,
        throughStepId: text.optional(),
        fromSeq: z.number().int().nonnegative(),
        toSeq: z.number().int().nonnegative(),
        summary: text,
        summaryTokens: z.number().int().nonnegative(),
        coveredTokens: z.number().int().nonnegative(),
        method: z.enum(['model', 'digest']),
        trigger: z.enum(['threshold', 'user']),
        fallbackReason: text.optional(),
      }),
    )
    .optional(),
  calibration: z
    .record(
      text,
      z.object({
        estimatedTokens: z.number().nonnegative(),
        reportedTokens: z.number().nonnegative(),
        steps: z.number().int().nonnegative(),
      }),
    )
    .optional(),
  lastPrompt: z
    .object({
      model: text,
      tokens: z.number().int().nonnegative(),
      reported: z.boolean(),
    })
    .optional(),
});

/** One turn with the records that belong to it: the unit a snapshot is stored in and the panel pages in. */
export const turnSliceSchema = z.object({
  turn: turnSchema,
  items: z.array(itemSchema),
  toolCalls: z.array(toolCallSchema),
  requests: z.array(requestSchema),
  commands: z.array(commandSchema),
});
export type TurnSlice = z.infer<typeof turnSliceSchema>;

export const sessionSnapshotSchema = z.object({
  format: z.literal(SNAPSHOT_FORMAT),
  sessionId: text,
  snapshotSeq: z.number().int().nonnegative(),
  state: snapshotStateSchema,
});

export type SessionSnapshot = z.infer<typeof sessionSnapshotSchema>;
