import { z } from 'zod';
import type { ParameterValue } from '../manifest/parameter-validation';
import type { ParameterSpec } from '../protocol/target-manifest';
import { jsonValueSchema } from '../protocol/json-value';

export interface FieldResult {
  tone: 'ok' | 'info' | 'warning' | 'error';
  message: string;
}

/** What `setParameter` answers, as far as the form needs it; anything else is reported as broken. */
const setOutputSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    applied: z.record(z.string(), jsonValueSchema),
    clamped: z.array(z.object({ param: z.string(), requested: jsonValueSchema, applied: jsonValueSchema })).optional(),
  }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);

export function formatParameterValue(value: unknown, spec: ParameterSpec): string {
  const unit = 'unit' in spec && spec.unit ? ` ${spec.unit}` : '';
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (typeof value === 'number') return `${value}${unit}`;
  if (Array.isArray(value)) return `[${value.join(', ')}]${unit}`;
  if (typeof value === 'string') return spec.type === 'string' ? JSON.stringify(value) : value;
  return String(value);
}

export type SetOutcome = { result: FieldResult; applied?: ParameterValue };

/** Turns the tool's answer to one `setParameter` into the line shown under the control. */
export function describeSetOutput(param: string, spec: ParameterSpec, output: unknown): SetOutcome {
  const parsed = setOutputSchema.safeParse(output);
  if (!parsed.success) return { result: { tone: 'error', message: 'The runtime answered with something unexpected.' } };
  if (!parsed.data.ok) return { result: { tone: 'error', message: parsed.data.error } };
  const applied = parsed.data.applied[param];
  if (applied === undefined || applied === null)
    return { result: { tone: 'warning', message: `Sent, but the target did not report "${param}" back.` } };
  const value = applied as ParameterValue;
  const clamped = parsed.data.clamped?.find((entry) => entry.param === param);
  if (clamped) {
    return {
      applied: value,
      result: {
        tone: 'warning',
        message: `Out of range: asked ${formatParameterValue(clamped.requested, spec)}, applied ${formatParameterValue(value, spec)}.`,
      },
    };
  }
  return { applied: value, result: { tone: 'ok', message: `Applied: ${formatParameterValue(value, spec)}.` } };
}

const resetOutputSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), values: z.record(z.string(), jsonValueSchema) }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);

export type ResetOutcome = { result: FieldResult; values?: Record<string, unknown> };

export function describeResetOutput(output: unknown): ResetOutcome {
  const parsed = resetOutputSchema.safeParse(output);
  if (!parsed.success)
    return { result: { tone: 'error', message: 'The runtime answered the reset with something unexpected.' } };
  if (!parsed.data.ok) return { result: { tone: 'error', message: parsed.data.error } };
  return { values: parsed.data.values, result: { tone: 'ok', message: 'Every parameter is back to its default.' } };
}

const anyOutputSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true) }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);

/** The error of a tool answer such as `openTarget`'s, or nothing when it succeeded. */
export function toolFailure(output: unknown): string | undefined {
  const parsed = anyOutputSchema.safeParse(output);
  if (!parsed.success) return 'The runtime answered with something unexpected.';
  return parsed.data.ok ? undefined : parsed.data.error;
}
