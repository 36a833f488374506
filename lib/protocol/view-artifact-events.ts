import { z } from 'zod';
import { VIEW_ARTIFACT_LIMITS, viewArtifactDataSchemas } from './view-artifact-data';
import { jsonObjectSchema } from './json-value';

export const VIEW_ARTIFACT_EVENT_TYPES = ['artifact/shown', 'artifact/action'] as const;

/** One version of a product-rendered artifact: its kind and its data, checked against that kind's schema. */
export const viewArtifactContentSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('table'), data: viewArtifactDataSchemas.table }),
  z.object({ kind: z.literal('chart'), data: viewArtifactDataSchemas.chart }),
  z.object({ kind: z.literal('diff'), data: viewArtifactDataSchemas.diff }),
  z.object({ kind: z.literal('plan'), data: viewArtifactDataSchemas.plan }),
  z.object({ kind: z.literal('code'), data: viewArtifactDataSchemas.code }),
]);
export type ViewArtifactContent = z.infer<typeof viewArtifactContentSchema>;

/**
 * `artifact/shown`: version N of a product-rendered artifact (table, chart, diff, plan, code), written by the
 * runtime for a showArtifact call. The data is inline and bounded (see VIEW_ARTIFACT_LIMITS). `artifact/action`:
 * a form's submission the runtime accepted, written with the `ask/answered` it became.
 */
export function viewArtifactEventSchemas<TEnvelope extends z.ZodRawShape>(envelope: TEnvelope, id: z.ZodString) {
  const event = <TType extends string, TShape extends z.ZodRawShape, TData extends z.ZodType>(
    type: TType,
    ids: TShape,
    data: TData,
  ) => z.object({ ...envelope, ...ids, type: z.literal(type), data });
  return [
    event(
      'artifact/shown',
      { artifactId: id, turnId: id, toolCallId: id },
      z.object({
        version: z.number().int().positive(),
        baseVersion: z.number().int().positive().optional(),
        title: z.string().min(1).max(VIEW_ARTIFACT_LIMITS.title),
        content: viewArtifactContentSchema,
      }),
    ),
    event(
      'artifact/action',
      { artifactId: id, turnId: id, requestId: id },
      z.object({ version: z.number().int().positive(), actionId: id, payload: jsonObjectSchema }),
    ),
  ] as const;
}
