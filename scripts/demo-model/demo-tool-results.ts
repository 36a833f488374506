import { z } from 'zod';

/** The parts of tool results the demo reads; anything else in them is ignored. */
export const targetListSchema = z.looseObject({
  ok: z.literal(true),
  targets: z.array(
    z.looseObject({ id: z.string(), title: z.string(), description: z.string().optional(), active: z.boolean() }),
  ),
});
export type DemoTarget = z.infer<typeof targetListSchema>['targets'][number];

export const openedTargetSchema = z.looseObject({ ok: z.literal(true), targetId: z.string(), title: z.string() });

const parameterSchema = z.looseObject({
  type: z.enum(['number', 'integer', 'boolean', 'string', 'enum', 'color', 'array']),
  unit: z.string().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  step: z.number().optional(),
  length: z.number().optional(),
  maxLength: z.number().optional(),
  options: z.array(z.string()).optional(),
  description: z.string().optional(),
  default: z.unknown(),
  value: z.unknown(),
});

export const parametersResultSchema = z.looseObject({
  ok: z.literal(true),
  targetId: z.string(),
  title: z.string(),
  parameters: z.record(z.string(), z.record(z.string(), parameterSchema)),
});

/** One parameter of the active target as getParameters reported it. */
export type DemoParameter = z.infer<typeof parameterSchema> & { readonly name: string; readonly group: string };

export interface DemoSchema {
  readonly targetId: string;
  readonly title: string;
  readonly parameters: readonly DemoParameter[];
}

export function demoSchemaOf(output: unknown): DemoSchema | undefined {
  const parsed = parametersResultSchema.safeParse(output);
  if (!parsed.success) return undefined;
  const parameters = Object.entries(parsed.data.parameters).flatMap(([group, specs]) =>
    Object.entries(specs).map(([name, spec]) => ({ ...spec, name, group })),
  );
  return { targetId: parsed.data.targetId, title: parsed.data.title, parameters };
}

export const appliedResultSchema = z.looseObject({
  ok: z.literal(true),
  applied: z.record(z.string(), z.unknown()),
  clamped: z.array(z.looseObject({ param: z.string() })).optional(),
});

export const resetResultSchema = z.looseObject({ ok: z.literal(true), values: z.record(z.string(), z.unknown()) });

export const failedResultSchema = z.looseObject({ ok: z.literal(false), error: z.string() });
