import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { targetManifestSchema, type ParameterSpec, type TargetManifest } from '../../lib/protocol/target-manifest';

export type ParameterValue = ParameterSpec['value'];
type NumberSpec = Extract<ParameterSpec, { type: 'number' | 'integer' }>;
type ArraySpec = Extract<ParameterSpec, { type: 'array' }>;

/** Every `<root>/<id>/manifest.json`, parsed with the same schema the build uses. */
export function readTargetManifests(root: string): TargetManifest[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, entry.name, 'manifest.json')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => targetManifestSchema.parse(JSON.parse(readFileSync(join(root, name, 'manifest.json'), 'utf8'))));
}

/** Removes the float noise of step arithmetic (0.1 + 0.2), far below any step a manifest uses. */
function tidy(value: number): number {
  return Number(value.toFixed(9));
}

/** Rounds onto the spec's step grid (counted from min) and into [min, max]. */
function onGrid(value: number, spec: { type: string; min?: number; max?: number; step?: number }): number {
  const base = spec.min ?? 0;
  let result = spec.step ? base + Math.round((value - base) / spec.step) * spec.step : value;
  if (spec.type === 'integer') result = Math.round(result);
  if (spec.max !== undefined && result > spec.max) result = spec.step ? result - spec.step : spec.max;
  if (spec.min !== undefined && result < spec.min) result = spec.min;
  return tidy(result);
}

function span(spec: { min?: number; max?: number }, fallback: number): { low: number; high: number } {
  return { low: spec.min ?? fallback - 100, high: spec.max ?? fallback + 100 };
}

function numberValue(spec: NumberSpec): number | undefined {
  const { low, high } = span(spec, spec.value);
  const quarter = (high - low) / 4;
  for (const candidate of [spec.value + quarter, spec.value - quarter]) {
    if (candidate > high || candidate < low) continue;
    const value = onGrid(candidate, spec);
    if (value !== spec.value) return value;
  }
  return undefined;
}

/** An increasing vector (so `[start, end]` ranges stay valid); `variant` shifts it so two vectors of one target differ. */
function arrayValue(spec: ArraySpec, variant: number): number[] | undefined {
  const { low, high } = span(spec, 0);
  const slots = spec.length + 2;
  const value = Array.from({ length: spec.length }, (_, index) =>
    onGrid(low + ((high - low) * (index + 1 + (variant % 2))) / slots, { ...spec, type: 'number' }),
  );
  return value.some((item, index) => item !== spec.value[index]) ? value : undefined;
}

function complementColor(color: string): string {
  return `#${(~parseInt(color.slice(1), 16) & 0xffffff).toString(16).padStart(6, '0')}`;
}

function stringValue(spec: Extract<ParameterSpec, { type: 'string' }>): string {
  const candidate = 'Set by the every-target test';
  const limited = spec.maxLength !== undefined ? candidate.slice(0, spec.maxLength) : candidate;
  return limited !== spec.value ? limited : limited.split('').reverse().join('');
}

/** A valid value other than the default, derived from the spec alone; undefined when the spec allows only the default. */
export function nonDefaultValue(spec: ParameterSpec, variant = 0): ParameterValue | undefined {
  switch (spec.type) {
    case 'number':
    case 'integer':
      return numberValue(spec);
    case 'array':
      return arrayValue(spec, variant);
    case 'boolean':
      return !spec.value;
    case 'enum':
      return spec.options.length > 1
        ? spec.options[(spec.options.indexOf(spec.value) + 1) % spec.options.length]
        : undefined;
    case 'color':
      return complementColor(spec.value.toLowerCase());
    case 'string':
      return stringValue(spec);
  }
}

export interface InvalidValue {
  why: string;
  value: unknown;
}

/** Values of the tool's value types (number, boolean, string, number[]) that the parameter must refuse. */
export function invalidValues(spec: ParameterSpec): InvalidValue[] {
  switch (spec.type) {
    case 'number':
    case 'integer':
      return [
        { why: 'a string', value: 'fast' },
        { why: 'a boolean', value: true },
        { why: 'an array', value: [1] },
        ...(spec.type === 'integer' ? [{ why: 'a fraction', value: (spec.min ?? spec.value) + 0.5 }] : []),
      ];
    case 'boolean':
      return [
        { why: 'the string "true"', value: 'true' },
        { why: 'the number 1', value: 1 },
      ];
    case 'string':
      return [
        { why: 'a number', value: 42 },
        { why: 'a boolean', value: false },
        ...(spec.maxLength !== undefined
          ? [{ why: `${spec.maxLength + 1} characters`, value: 'x'.repeat(spec.maxLength + 1) }]
          : []),
      ];
    case 'enum':
      return [
        { why: 'an unknown option', value: 'no-such-option' },
        { why: 'a number', value: 0 },
      ];
    case 'color':
      return [
        { why: 'a colour name', value: 'red' },
        { why: 'five hex digits', value: '#12345' },
        { why: 'a number', value: 0x123456 },
      ];
    case 'array':
      return [
        { why: `${spec.length + 1} numbers`, value: [...spec.value, spec.value[0]] },
        { why: `${spec.length - 1} numbers`, value: spec.value.slice(1) },
        { why: 'a number', value: 5 },
        { why: 'a string', value: spec.value.join(',') },
      ];
  }
}

export interface OutOfRange {
  requested: number | number[];
  applied: number | number[];
}

/**
 * A request beyond a bound and the value it must be clamped to: numbers go past `max` (or below `min`
 * when asked, or when there is no max); arrays move their last item past `max`, so `[start, end]` stays ordered.
 */
export function outOfRangeValue(spec: ParameterSpec, below = false): OutOfRange | undefined {
  if (spec.type !== 'number' && spec.type !== 'integer' && spec.type !== 'array') return undefined;
  const useMin = (below || spec.max === undefined) && spec.min !== undefined;
  if (!useMin && spec.max === undefined) return undefined;
  const bump = Math.max(1, Math.ceil(Math.abs((spec.max ?? 0) - (spec.min ?? 0)) / 2));
  const bound = useMin ? spec.min! : spec.max!;
  const beyond = useMin ? bound - bump : bound + bump;
  if (spec.type !== 'array') return { requested: beyond, applied: bound };
  const index = useMin ? 0 : spec.length - 1;
  const requested = spec.value.map((item, position) => (position === index ? beyond : item));
  const applied = spec.value.map((item, position) => (position === index ? bound : item));
  return { requested, applied };
}

/** Equal as the target would report it: numbers within float noise, arrays item by item. */
export function sameValue(actual: unknown, expected: unknown): boolean {
  if (typeof expected === 'number') return typeof actual === 'number' && Math.abs(actual - expected) < 1e-9;
  if (Array.isArray(expected))
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((item, index) => sameValue(actual[index], item))
    );
  return actual === expected;
}

/** A plausible typo of a name: its last character dropped, or one added to a one-letter name. */
export function typoOf(name: string): string {
  return name.length > 2 ? name.slice(0, -1) : `${name}x`;
}
