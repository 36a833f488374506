import type { JsonObject, JsonValue } from '../protocol/json-value';
import { jsonPointer, MAX_PROBLEMS, type ViewProblem } from '../view-artifacts/view-problems';
import { FORM_LIMITS, type FormField, type StoredForm } from './form-definition';

export type CheckedFormPayload = { ok: true; values: JsonObject } | { ok: false; problems: ViewProblem[] };

const COLOR = /^#[0-9a-fA-F]{6}$/;
const PREFIX = '/payload';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withUnit(value: number, field: { unit?: string }): string {
  return field.unit ? `${value} ${field.unit}` : String(value);
}

/** What is wrong with one field's value, or undefined when it is right. `undefined` is a value left out. */
function fieldProblem(field: FormField, value: unknown): string | undefined {
  const missing = value === undefined || value === null;
  switch (field.type) {
    case 'text':
      if (missing || value === '') return field.required === false ? undefined : 'is required';
      if (typeof value !== 'string') return 'must be text';
      if (field.required !== false && value.trim() === '') return 'is required';
      if (value.length > (field.maxLength ?? FORM_LIMITS.textLength))
        return `is longer than ${field.maxLength ?? FORM_LIMITS.textLength} characters`;
      return undefined;
    case 'number':
      if (missing) return field.required === false ? undefined : 'is required';
      return numberProblem(field, value);
    case 'slider':
      if (missing) return 'is required';
      return numberProblem(field, value) ?? stepProblem(field, value as number);
    case 'choice':
      if (missing) return 'is required';
      return typeof value === 'string' && field.options.includes(value)
        ? undefined
        : `must be one of: ${field.options.join(', ')}`;
    case 'toggle':
      if (missing) return 'is required';
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'color':
      if (missing) return 'is required';
      return typeof value === 'string' && COLOR.test(value) ? undefined : 'must be a colour as #rrggbb';
  }
}

function numberProblem(
  field: { min?: number; max?: number; unit?: string; integer?: boolean },
  value: unknown,
): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
  if (field.integer && !Number.isInteger(value)) return 'must be a whole number';
  if (field.min !== undefined && value < field.min) return `must be at least ${withUnit(field.min, field)}`;
  if (field.max !== undefined && value > field.max) return `must be at most ${withUnit(field.max, field)}`;
  return undefined;
}

function stepProblem(field: { min: number; step?: number; unit?: string }, value: number): string | undefined {
  if (field.step === undefined) return undefined;
  const steps = (value - field.min) / field.step;
  return Math.abs(steps - Math.round(steps)) <= 1e-9 * Math.max(1, Math.abs(steps))
    ? undefined
    : `must be ${withUnit(field.min, field)} plus a multiple of ${field.step}`;
}

/**
 * Checks a submitted payload against its form: every problem, each with its JSON Pointer, or the values. Pure,
 * so the panel and the runtime agree, and it is the runtime's verdict that counts.
 */
export function validateFormPayload(form: StoredForm, payload: unknown): CheckedFormPayload {
  if (!isRecord(payload))
    return { ok: false, problems: [{ path: PREFIX, message: 'must be an object of field values' }] };
  const problems: ViewProblem[] = [];
  const fields = new Map(form.fields.map((field) => [field.id, field]));
  for (const key of Object.keys(payload))
    if (!fields.has(key)) problems.push({ path: jsonPointer([key], PREFIX), message: 'is not a field of this form' });
  const values: JsonObject = {};
  for (const field of form.fields) {
    const value = Object.hasOwn(payload, field.id) ? payload[field.id] : undefined;
    const problem = fieldProblem(field, value);
    if (problem) problems.push({ path: jsonPointer([field.id], PREFIX), message: problem });
    else if (value !== undefined && value !== null && value !== '') values[field.id] = value as JsonValue;
  }
  return problems.length > 0 ? { ok: false, problems: problems.slice(0, MAX_PROBLEMS) } : { ok: true, values };
}
