import { z } from 'zod';
import { jsonObjectSchema } from './json-value';

export const STAGE_SOURCE = 'splitbrain:stage';
export const TARGET_SOURCE = 'splitbrain:target';

const stageMessageBase = { source: z.literal(STAGE_SOURCE), id: z.string().min(1).max(200) };

/** What a target is asked to do, each answered with its state; `base` is what the wire adds around a command. */
function stageCommandUnion<TBase extends z.ZodRawShape>(base: TBase) {
  return z.discriminatedUnion('type', [
    z.object({ ...base, type: z.literal('apply'), payload: jsonObjectSchema }),
    z.object({ ...base, type: z.literal('reset') }),
    z.object({ ...base, type: z.literal('read') }),
  ]);
}

export const stageCommandSchema = stageCommandUnion({});
export type StageCommand = z.infer<typeof stageCommandSchema>;

/** A command's name, or `open` (which the stage does itself): what the stage reports it did for a call. */
export const stageActionTypeSchema = z.enum([
  'open',
  ...stageCommandSchema.options.map((option) => option.shape.type.value),
]);
export type StageActionType = z.infer<typeof stageActionTypeSchema>;

export const stageToTargetMessageSchema = stageCommandUnion(stageMessageBase);
export type StageToTargetMessage = z.infer<typeof stageToTargetMessageSchema>;

/**
 * Sent once by the stage right after `ready`, by window, with one transferred MessagePort: every later
 * command and reply travels over that port, which no other frame can post to.
 */
export const portHandoverMessageSchema = z.object({ source: z.literal(STAGE_SOURCE), type: z.literal('port') });
export type PortHandoverMessage = z.infer<typeof portHandoverMessageSchema>;

const targetMessageBase = { source: z.literal(TARGET_SOURCE) };

export const targetToStageMessageSchema = z.discriminatedUnion('type', [
  z.object({ ...targetMessageBase, type: z.literal('ready'), state: jsonObjectSchema.optional() }),
  z.object({ ...targetMessageBase, type: z.literal('state'), id: z.string().optional(), payload: jsonObjectSchema }),
  z.object({
    ...targetMessageBase,
    type: z.literal('error'),
    id: z.string().optional(),
    message: z.string().max(4000),
  }),
]);
export type TargetToStageMessage = z.infer<typeof targetToStageMessageSchema>;

/** Values may arrive wrapped as `{ value: x }` from some layers; unwrap once, defensively. */
export function unwrapValue(value: unknown): unknown {
  let current = value;
  while (
    current !== null &&
    typeof current === 'object' &&
    !Array.isArray(current) &&
    Object.keys(current).length === 1 &&
    'value' in current
  ) {
    current = (current as { value: unknown }).value;
  }
  return current;
}
