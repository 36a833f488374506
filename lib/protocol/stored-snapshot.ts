import { z } from 'zod';
import { agentEventSchema, turnCommandKind } from './agent-event';
import { jsonValueSchema } from './json-value';
import { SNAPSHOT_FORMAT, snapshotStateSchema, turnSliceSchema } from './session-snapshot';
import { targetArtifactPartsSchema, targetArtifactProblemSchema, targetGrantSchema } from './target-artifact-events';
import { restoredTargetValuesSchema } from './rewind-events';

const text = z.string();
const versionNumber = z.number().int().positive();

/** A session's authored targets as lib/authored-targets/target-artifact-ledger.ts keeps them. */
export const storedTargetArtifactSchema = z.object({
  artifactId: text,
  current: versionNumber.optional(),
  latest: z.number().int().nonnegative(),
  versions: z.array(
    z.object({
      version: versionNumber,
      state: z.enum(['draft', 'ready', 'rejected', 'superseded']),
      parts: targetArtifactPartsSchema,
      baseVersion: versionNumber.optional(),
      restoredFrom: versionNumber.optional(),
      requested: z.array(targetGrantSchema),
      problems: z.array(targetArtifactProblemSchema),
    }),
  ),
  granted: z.array(targetGrantSchema),
});
export type StoredTargetArtifact = z.infer<typeof storedTargetArtifactSchema>;

/** A rewind whose effects outside the log are not done yet, as lib/runtime/rewind-book.ts keeps it. */
export const storedPendingRewindSchema = z.object({
  rewindId: text,
  seq: z.number().int().positive(),
  time: z.number(),
  values: z.array(restoredTargetValuesSchema),
  reload: z.array(text),
});
export type StoredPendingRewind = z.infer<typeof storedPendingRewindSchema>;

/**
 * What the runtime itself remembers of a session's log (lib/runtime/request-book.ts, lib/jobs/job-ledger.ts,
 * lib/authored-targets/target-artifact-ledger.ts, lib/runtime/rewind-book.ts).
 */
export const runtimeBookSchema = z.object({
  requests: z.array(
    z.object({
      requestId: text,
      kind: z.enum(['ask', 'approval']),
      turnId: text,
      toolCallId: text.optional(),
      argumentsHash: text.optional(),
      targetId: text.optional(),
      answerSchema: jsonValueSchema.optional(),
      expiresAt: z.number().optional(),
      status: z.enum(['pending', 'allowed', 'denied', 'answered', 'expired']),
      cause: z.enum(['timeout', 'turn-ended', 'context-lost']).optional(),
      answer: jsonValueSchema.optional(),
      scope: z.enum(['once', 'target-session']).optional(),
    }),
  ),
  commands: z.array(
    z.object({
      commandId: text,
      kind: turnCommandKind,
      turnId: text,
      state: z.enum(['submitted', 'accepted', 'queued', 'applied', 'stale', 'rejected', 'cancelled']),
      text: text.optional(),
    }),
  ),
  endedTurns: z.array(
    z.tuple([text, z.object({ status: z.enum(['completed', 'aborted', 'interrupted']), commandId: text.optional() })]),
  ),
  startedTurns: z.array(text),
  /** Turns paused and not resumed yet: open, but no driver runs them. */
  pausedTurns: z.array(text).optional(),
  startedCalls: z.array(z.tuple([text, text])),
  grants: z.array(text),
  jobs: z.array(
    z.object({
      jobId: text,
      turnId: text.optional(),
      toolCallId: text.optional(),
      background: z.boolean(),
      state: z.enum(['created', 'running', 'stopping', 'completed', 'failed', 'killed', 'orphaned']),
      createdAt: z.number(),
      stoppingCommandId: text.optional(),
      final: agentEventSchema.optional(),
    }),
  ),
  targets: z.array(storedTargetArtifactSchema),
  /** Rewinds recorded without their `rewind/completed` (snapshot version 7). */
  rewinds: z.array(storedPendingRewindSchema),
});
export type RuntimeBook = z.infer<typeof runtimeBookSchema>;

/**
 * A stored snapshot's head (table `snapshots`): the state at `snapshotSeq` without its turns (those are rows of
 * `snapshotTurns`, one per turn, so that a window or a page is read without the rest), how many turns there are,
 * and the runtime's book at the same seq, so that opening a session never reads the log before `snapshotSeq`.
 */
export const storedSnapshotHeadSchema = z.object({
  format: z.literal(SNAPSHOT_FORMAT),
  sessionId: text,
  snapshotSeq: z.number().int().nonnegative(),
  turnCount: z.number().int().nonnegative(),
  state: snapshotStateSchema,
  book: runtimeBookSchema,
});
export type StoredSnapshotHead = z.infer<typeof storedSnapshotHeadSchema>;

/** One turn of a stored snapshot; `position` is its index in the conversation, which never changes. */
export const storedTurnRowSchema = z.object({
  format: z.literal(SNAPSHOT_FORMAT),
  sessionId: text,
  position: z.number().int().nonnegative(),
  turnId: text,
  slice: turnSliceSchema,
});
export type StoredTurnRow = z.infer<typeof storedTurnRowSchema>;
