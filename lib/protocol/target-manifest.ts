import { z } from 'zod';
import { issueText } from '../protocol/issue-text';

const name = z.string().regex(/^[a-z][a-z0-9_]*$/, 'must be snake_case: lowercase letters, digits and _');
const common = {
  description: z.string().max(1000).optional(),
  unit: z.string().max(60).optional(),
  confirm: z.boolean().optional(),
};

const numberParameter = z
  .object({
    ...common,
    type: z.enum(['number', 'integer']),
    min: z.number().optional(),
    max: z.number().optional(),
    step: z.number().positive().optional(),
    value: z.number(),
  })
  .strict();

const arrayParameter = z
  .object({
    ...common,
    type: z.literal('array'),
    length: z.number().int().min(1).max(16),
    min: z.number().optional(),
    max: z.number().optional(),
    step: z.number().positive().optional(),
    value: z.array(z.number()),
  })
  .strict();

export const parameterSpecSchema = z.discriminatedUnion('type', [
  numberParameter,
  arrayParameter,
  z.object({ ...common, type: z.literal('boolean'), value: z.boolean() }).strict(),
  z
    .object({
      ...common,
      type: z.literal('string'),
      maxLength: z.number().int().positive().optional(),
      value: z.string(),
    })
    .strict(),
  z.object({ ...common, type: z.literal('enum'), options: z.array(z.string()).min(1), value: z.string() }).strict(),
  z
    .object({ ...common, type: z.literal('color'), value: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be #rrggbb') })
    .strict(),
]);
export type ParameterSpec = z.infer<typeof parameterSpecSchema>;

export const targetManifestSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lowercase letters, digits and -'),
    title: z.string().min(1).max(120),
    description: z.string().min(1).max(2000),
    entry: z
      .string()
      .regex(/^[A-Za-z0-9_\-/.]+\.html$/, 'must be a relative .html path')
      .refine((path) => !path.includes('..'), 'must stay inside the target folder'),
    permissions: z
      .object({
        network: z.array(z.string()).default([]),
        clipboard: z.boolean().optional(),
        download: z.boolean().optional(),
      })
      .strict()
      .optional(),
    /** Resetting this target needs the user's approval (a parameter asks for it with its own `confirm`). */
    confirmReset: z.boolean().optional(),
    params: z.record(name, z.record(name, parameterSpecSchema)),
  })
  .strict()
  .superRefine((manifest, context) => {
    const seen = new Map<string, string>();
    for (const [group, parameters] of Object.entries(manifest.params)) {
      for (const [parameterName, spec] of Object.entries(parameters)) {
        const path = ['params', group, parameterName];
        const previous = seen.get(parameterName);
        if (previous)
          context.addIssue({
            code: 'custom',
            path,
            message: `duplicates "${parameterName}" of group "${previous}"; names must be unique across groups`,
          });
        seen.set(parameterName, group);
        for (const problem of defaultValueProblems(spec))
          context.addIssue({ code: 'custom', path: [...path, 'value'], message: problem });
      }
    }
  });
export type TargetManifest = z.infer<typeof targetManifestSchema>;

function defaultValueProblems(spec: ParameterSpec): string[] {
  const problems: string[] = [];
  if (spec.type === 'number' || spec.type === 'integer') {
    if (spec.min !== undefined && spec.max !== undefined && spec.min > spec.max)
      problems.push('min is greater than max');
    if (spec.type === 'integer' && !Number.isInteger(spec.value))
      problems.push('default of an integer parameter is not an integer');
    if ((spec.min !== undefined && spec.value < spec.min) || (spec.max !== undefined && spec.value > spec.max))
      problems.push('default is outside [min, max]');
  }
  if (spec.type === 'array' && spec.value.length !== spec.length)
    problems.push(`default has ${spec.value.length} numbers, length is ${spec.length}`);
  if (spec.type === 'enum' && !spec.options.includes(spec.value))
    problems.push(`default "${spec.value}" is not one of the options`);
  return problems;
}

/** Formats a zod error as one line per field, naming the file, e.g. for a failed build. */
export function describeManifestError(file: string, error: z.ZodError): string {
  return error.issues.map((issue) => `${file}: ${issueText(issue, { root: '(root)' })}`).join('\n');
}

export function flattenParameters(manifest: TargetManifest): Map<string, { group: string; spec: ParameterSpec }> {
  const flat = new Map<string, { group: string; spec: ParameterSpec }>();
  for (const [group, parameters] of Object.entries(manifest.params)) {
    for (const [parameterName, spec] of Object.entries(parameters)) flat.set(parameterName, { group, spec });
  }
  return flat;
}
