import { unwrapValue } from '../protocol/target-wire';
import { closestNames } from './closest-names';
import { flattenParameters, type ParameterSpec, type TargetManifest } from '../protocol/target-manifest';

export type ParameterValue = ParameterSpec['value'];

export type ValueCheck = { ok: true; value: ParameterValue; clampedFrom?: unknown } | { ok: false; error: string };

export interface ParameterChange {
  param: string;
  value: unknown;
}

export interface AppliedChange {
  param: string;
  value: ParameterValue;
  clampedFrom?: unknown;
}

export type ChangesCheck =
  { ok: true; changes: AppliedChange[] } | { ok: false; error: string; problems: { param: string; error: string }[] };

function clamp(value: number, spec: { min?: number; max?: number }): number {
  if (spec.min !== undefined && value < spec.min) return spec.min;
  if (spec.max !== undefined && value > spec.max) return spec.max;
  return value;
}

function rangeText(spec: { min?: number; max?: number; unit?: string }): string {
  const unit = spec.unit ? ` ${spec.unit}` : '';
  return `[${spec.min ?? '-∞'}, ${spec.max ?? '∞'}]${unit}`;
}

function checkNumber(spec: Extract<ParameterSpec, { type: 'number' | 'integer' }>, value: unknown): ValueCheck {
  if (typeof value !== 'number' || !Number.isFinite(value))
    return {
      ok: false,
      error: `expects a finite number${spec.unit ? ` in ${spec.unit}` : ''}, got ${describe(value)}`,
    };
  if (spec.type === 'integer' && !Number.isInteger(value))
    return { ok: false, error: `expects an integer, got ${value}` };
  const clamped = clamp(value, spec);
  return clamped === value ? { ok: true, value } : { ok: true, value: clamped, clampedFrom: value };
}

function checkArray(spec: Extract<ParameterSpec, { type: 'array' }>, value: unknown): ValueCheck {
  if (!Array.isArray(value) || value.some((element) => typeof element !== 'number' || !Number.isFinite(element))) {
    return { ok: false, error: `expects an array of ${spec.length} numbers, got ${describe(value)}` };
  }
  if (value.length !== spec.length)
    return { ok: false, error: `expects exactly ${spec.length} numbers, got ${value.length}` };
  const clamped = value.map((element: number) => clamp(element, spec));
  const changed = clamped.some((element, index) => element !== value[index]);
  return changed ? { ok: true, value: clamped, clampedFrom: value } : { ok: true, value: clamped };
}

export function checkValue(spec: ParameterSpec, rawValue: unknown): ValueCheck {
  const value = unwrapValue(rawValue);
  switch (spec.type) {
    case 'number':
    case 'integer':
      return checkNumber(spec, value);
    case 'array':
      return checkArray(spec, value);
    case 'boolean':
      return typeof value === 'boolean'
        ? { ok: true, value }
        : { ok: false, error: `expects true or false, got ${describe(value)}` };
    case 'string':
      if (typeof value !== 'string') return { ok: false, error: `expects a string, got ${describe(value)}` };
      if (spec.maxLength !== undefined && value.length > spec.maxLength)
        return { ok: false, error: `expects at most ${spec.maxLength} characters` };
      return { ok: true, value };
    case 'enum':
      return typeof value === 'string' && spec.options.includes(value)
        ? { ok: true, value }
        : {
            ok: false,
            error: `expects one of ${spec.options.map((option) => JSON.stringify(option)).join(', ')}, got ${describe(value)}`,
          };
    case 'color':
      return typeof value === 'string' && /^#[0-9a-fA-F]{6}$/.test(value)
        ? { ok: true, value: value.toLowerCase() }
        : { ok: false, error: `expects a colour as "#rrggbb", got ${describe(value)}` };
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  const text = JSON.stringify(value) ?? String(value);
  return `${typeof value} ${text.length > 60 ? `${text.slice(0, 57)}...` : text}`;
}

function resolveName(param: string, names: string[]): string | undefined {
  if (names.includes(param)) return param;
  const dotted = param.split('.').at(-1);
  return dotted && names.includes(dotted) ? dotted : undefined;
}

function unknownParameterError(param: string, names: string[]): string {
  const close = closestNames(param, names);
  const hint = close.length ? ` Did you mean ${close.map((item) => `"${item}"`).join(' or ')}?` : '';
  return `Parameter "${param}" not found.${hint} Known parameters: ${names.join(', ')}.`;
}

/** Validates a batch against the manifest; nothing is applied unless every change is valid. */
export function checkChanges(manifest: TargetManifest, changes: readonly ParameterChange[]): ChangesCheck {
  const flat = flattenParameters(manifest);
  const names = [...flat.keys()];
  const problems: { param: string; error: string }[] = [];
  const applied: AppliedChange[] = [];
  if (changes.length === 0) return { ok: false, error: 'No changes given.', problems: [] };
  for (const change of changes) {
    const resolved = resolveName(change.param, names);
    if (!resolved) {
      problems.push({ param: change.param, error: unknownParameterError(change.param, names) });
      continue;
    }
    const spec = flat.get(resolved)!.spec;
    const result = checkValue(spec, change.value);
    if (!result.ok)
      problems.push({
        param: resolved,
        error: `Parameter "${resolved}" ${result.error}${spec.type === 'number' || spec.type === 'integer' ? ` (range ${rangeText(spec)})` : ''}.`,
      });
    else
      applied.push({
        param: resolved,
        value: result.value,
        ...(result.clampedFrom !== undefined ? { clampedFrom: result.clampedFrom } : {}),
      });
  }
  if (problems.length)
    return { ok: false, error: `${problems.map((problem) => problem.error).join(' ')} Nothing was changed.`, problems };
  return { ok: true, changes: applied };
}
