import { z } from 'zod';
import { jsonObjectSchema } from './json-value';

/**
 * What a rewind restores besides the conversation: `conversation` only the branch in view; `values` also the
 * targets' values as of that point; `versions` also the authored targets' versions as of that point.
 */
export const REWIND_MODES = ['conversation', 'values', 'versions'] as const;
export const rewindModeSchema = z.enum(REWIND_MODES);
export type RewindMode = z.infer<typeof rewindModeSchema>;

/** A target's values as the log knew them at a point: each parameter it read, set or reset by then. */
export const restoredTargetValuesSchema = z.object({ targetId: z.string().min(1).max(200), values: jsonObjectSchema });
export type RestoredTargetValues = z.infer<typeof restoredTargetValuesSchema>;

/**
 * `rewind/applied` (version 6): the conversation went back to just before the message of `turnId`; the branch in
 * view now ends at `parentTurnId` (null: before the first message), so the next message is a sibling of that
 * turn and every later turn stays in the tree. `fromLeaf` is where the view was. `values` are the targets' values
 * to put back on the stage (none for `conversation`); `versions` the authored targets' versions made current
 * again (none unless `versions`).
 *
 * Version 8: `rewindId` names the rewind (the panel's request id: the same request sent again after a restart is
 * the same rewind), and each of `versions` says the new version it was restored as (`restoredAs`): the restores
 * are recorded in the same commit as the rewind, so none is made twice or lost. What happens outside the log
 * (the values reaching the stage, a shown target reloaded) is recorded after it as `rewind/completed`; a
 * `rewind/applied` with a `rewindId` and no `rewind/completed` is completed by the next runtime that loads the
 * session. A version-6 or -7 row has no `rewindId`: the build that wrote it did its effects at once or lost them,
 * and nothing says which, so it is never completed again. Runtime only.
 *
 * `rewind/completed` (version 8): the rewind `rewindId`'s effects outside the log are done: `reloaded` the authored
 * targets reloaded because the stage showed them, `applied` the targets whose values were applied in the stage,
 * `saved` those whose values were saved for when they are opened. Runtime only.
 */
export function rewindEventSchemas<TEnvelope extends z.ZodRawShape>(envelope: TEnvelope, id: z.ZodString) {
  const version = z.number().int().positive();
  return [
    z.object({
      ...envelope,
      turnId: id,
      type: z.literal('rewind/applied'),
      data: z.object({
        mode: rewindModeSchema,
        rewindId: id.optional(),
        parentTurnId: id.nullable(),
        fromLeaf: id.nullable(),
        values: z.array(restoredTargetValuesSchema).max(100),
        versions: z.array(z.object({ artifactId: id, version, restoredAs: version.optional() })).max(100),
      }),
    }),
    z.object({
      ...envelope,
      type: z.literal('rewind/completed'),
      data: z.object({
        rewindId: id,
        reloaded: z.array(id).max(100),
        applied: z.array(id).max(100),
        saved: z.array(id).max(100),
      }),
    }),
  ] as const;
}
