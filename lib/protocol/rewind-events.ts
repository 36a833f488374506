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
 * pushed to the stage (none for `conversation`); `versions` the authored targets' versions made current again,
 * each as a new version `restoredFrom` that one (none unless `versions`). Runtime only.
 */
export function rewindEventSchemas<TEnvelope extends z.ZodRawShape>(envelope: TEnvelope, id: z.ZodString) {
  return [
    z.object({
      ...envelope,
      turnId: id,
      type: z.literal('rewind/applied'),
      data: z.object({
        mode: rewindModeSchema,
        parentTurnId: id.nullable(),
        fromLeaf: id.nullable(),
        values: z.array(restoredTargetValuesSchema).max(100),
        versions: z.array(z.object({ artifactId: id, version: z.number().int().positive() })).max(100),
      }),
    }),
  ] as const;
}
