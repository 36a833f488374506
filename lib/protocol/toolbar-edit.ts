import { z } from 'zod';
import { jsonObjectSchema } from './json-value';

/** A change of a target's values made from the toolbar popup: when, which target, the values it applied. */
export const toolbarEditSchema = z.object({
  time: z.number(),
  targetId: z.string().min(1).max(200),
  values: jsonObjectSchema,
});
export type ToolbarEdit = z.infer<typeof toolbarEditSchema>;

/**
 * The toolbar's changes as kept in extension storage (outside every conversation's log: the toolbar acts in no
 * conversation), oldest first; `dropped` once older ones were let go to keep the list short.
 */
export const toolbarEditHistorySchema = z.object({
  edits: z.array(toolbarEditSchema),
  dropped: z.boolean(),
});
export type ToolbarEditHistory = z.infer<typeof toolbarEditHistorySchema>;
