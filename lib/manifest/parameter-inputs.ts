import type { ParameterSpec } from '../protocol/target-manifest';

interface NumberBounds {
  min?: number;
  max?: number;
  /** Granularity of the control; `undefined` lets the number field take any value. */
  step?: number;
  integer: boolean;
}

/** How the toolbar form edits one parameter, derived from its manifest spec alone. */
export type ParameterInput =
  | ({ kind: 'slider'; min: number; max: number; sliderStep: number } & NumberBounds)
  | ({ kind: 'number' } & NumberBounds)
  | { kind: 'toggle' }
  | { kind: 'select'; options: string[] }
  | { kind: 'color' }
  | { kind: 'text'; maxLength?: number }
  | ({ kind: 'vector'; labels: string[] } & NumberBounds);

const AXES = ['x', 'y', 'z', 'w'];
const SLIDER_POSITIONS = 200;

export function parameterInput(spec: ParameterSpec): ParameterInput {
  switch (spec.type) {
    case 'number':
    case 'integer':
      return numberInput(spec);
    case 'array':
      return { kind: 'vector', labels: vectorLabels(spec.length, spec.description), ...bounds(spec, false) };
    case 'boolean':
      return { kind: 'toggle' };
    case 'enum':
      return { kind: 'select', options: spec.options };
    case 'color':
      return { kind: 'color' };
    case 'string':
      return { kind: 'text', ...(spec.maxLength !== undefined ? { maxLength: spec.maxLength } : {}) };
  }
}

function bounds(spec: { min?: number; max?: number; step?: number }, integer: boolean): NumberBounds {
  const step = spec.step ?? (integer ? 1 : undefined);
  return {
    ...(spec.min !== undefined ? { min: spec.min } : {}),
    ...(spec.max !== undefined ? { max: spec.max } : {}),
    ...(step !== undefined ? { step } : {}),
    integer,
  };
}

function numberInput(spec: Extract<ParameterSpec, { type: 'number' | 'integer' }>): ParameterInput {
  const integer = spec.type === 'integer';
  const numberBounds = bounds(spec, integer);
  if (spec.min === undefined || spec.max === undefined || spec.min === spec.max)
    return { kind: 'number', ...numberBounds };
  return {
    kind: 'slider',
    ...numberBounds,
    min: spec.min,
    max: spec.max,
    sliderStep: numberBounds.step ?? niceStep((spec.max - spec.min) / SLIDER_POSITIONS),
  };
}

/** The nearest 1, 2 or 5 × 10^n at or below `raw`, so a slider without a declared step still lands on round values. */
export function niceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const mantissa = raw / magnitude;
  const nice = mantissa >= 5 ? 5 : mantissa >= 2 ? 2 : 1;
  return roundToDecimals(nice * magnitude, decimalsOf(magnitude));
}

/**
 * Labels of a vector's elements. A description that spells the elements out, like
 * "Camera position [x, y, z]" or "The span [start, end]", names them; otherwise three
 * elements are x, y, z (four add w) and any other length is numbered from 1.
 */
export function vectorLabels(length: number, description?: string): string[] {
  const spelled = spelledLabels(length, description);
  if (spelled) return spelled;
  if (length === 3 || length === 4) return AXES.slice(0, length);
  return Array.from({ length }, (_, index) => String(index + 1));
}

function spelledLabels(length: number, description?: string): string[] | undefined {
  if (!description) return undefined;
  for (const match of description.matchAll(/\[([^\]]+)\]/g)) {
    const words = match[1].split(',').map((word) => word.trim());
    if (words.length === length && words.every((word) => /^[A-Za-z][A-Za-z_]{0,15}$/.test(word))) return words;
  }
  return undefined;
}

export function decimalsOf(step: number): number {
  if (!Number.isFinite(step) || Number.isInteger(step)) return 0;
  const text = step.toExponential();
  const [mantissa, exponent] = text.split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent));
}

function roundToDecimals(value: number, decimals: number): number {
  return Number(value.toFixed(Math.min(decimals, 20)));
}

/** The range shown beside a numeric parameter, e.g. "0 – 50", "≥ 0"; nothing for other types. */
export function rangeLabel(spec: ParameterSpec): string | undefined {
  if (spec.type !== 'number' && spec.type !== 'integer' && spec.type !== 'array') return undefined;
  const { min, max } = spec;
  if (min !== undefined && max !== undefined) return `${min} – ${max}`;
  if (min !== undefined) return `≥ ${min}`;
  if (max !== undefined) return `≤ ${max}`;
  return undefined;
}
