import { z } from 'zod';
import { restoredTargetValuesSchema } from './rewind-events';

const id = z.string().min(1).max(200);

/** What happened in the world after a rewind's point and stays: a rewind changes the log's view, not the world. */
export const NOT_UNDONE_KINDS = ['page-action', 'download', 'upload', 'external-tool', 'job'] as const;

export const notUndoneSchema = z.object({
  kind: z.enum(NOT_UNDONE_KINDS),
  toolCallId: id,
  toolName: z.string().max(200),
  /** A short line saying what it did (the action, the address, the file), for the confirmation. */
  detail: z.string().max(300),
});
export type NotUndone = z.infer<typeof notUndoneSchema>;

/**
 * What a rewind to just before `turnId`'s message would do, from the log and the toolbar's changes: the
 * confirmation shows it and the runtime applies the part the user's mode asks for. `values`: each target changed
 * after the point (by the conversation or from the toolbar), with the values known then for what changed (mode
 * `values` and `versions`); `unknownValues`: parameters changed after the point that the log never read or set
 * and the toolbar never set before it, left as they are; `versions`: authored targets whose
 * version changed since, with the version that was current then (mode `versions`); `createdAfter`: authored
 * targets made after the point, which stay (nothing is deleted).
 */
export const rewindPreviewSchema = z.object({
  turnId: id,
  parentTurnId: id.nullable(),
  /** The seq of the message's `turn/started`: everything logged from it on is after the point. */
  pointSeq: z.number().int().nonnegative(),
  laterTurns: z.number().int().nonnegative(),
  notUndone: z.array(notUndoneSchema),
  values: z.array(restoredTargetValuesSchema),
  unknownValues: z.array(z.object({ targetId: id, params: z.array(z.string()) })),
  versions: z.array(z.object({ artifactId: id, version: z.number().int().positive(), current: z.number().int() })),
  createdAfter: z.array(id),
  /**
   * The toolbar's changes, which count as the conversation's own: how many of them came after the point, and, when
   * older ones were let go, the time of the oldest kept (a value set from the toolbar before it is not known).
   */
  toolbar: z.object({ changesAfter: z.number().int().nonnegative(), keptSince: z.number().optional() }),
});
export type RewindPreview = z.infer<typeof rewindPreviewSchema>;

/**
 * What a rewind did: the values put back on the stage, and each authored target's version made current again.
 * `unfinished`: the rewind is recorded, but putting them on the stage failed for this reason; it is tried again
 * when the conversation is opened.
 */
export const rewindResultSchema = z.object({
  values: z.array(restoredTargetValuesSchema),
  versions: z.array(z.object({ artifactId: id, restoredFrom: z.number().int().positive(), version: z.number().int() })),
  unfinished: z.string().max(2000).optional(),
});
export type RewindResult = z.infer<typeof rewindResultSchema>;
