import { colorIn } from './color-words';
import { requestWords } from './request-words';
import type { DemoParameter } from './demo-tool-results';
import { convertToUnit, numbersWithUnits } from './unit-words';

export const increaseWords = new Set([
  'faster',
  'quicker',
  'more',
  'higher',
  'increase',
  'bigger',
  'larger',
  'louder',
  'brighter',
  'longer',
  'wider',
  'raise',
  'heavier',
  'bolder',
  'thicker',
  'stronger',
  'rougher',
  'taller',
  'up',
  'boost',
]);
export const decreaseWords = new Set([
  'slower',
  'less',
  'fewer',
  'lower',
  'decrease',
  'smaller',
  'quieter',
  'softer',
  'dimmer',
  'shorter',
  'narrower',
  'reduce',
  'lighter',
  'thinner',
  'weaker',
  'smoother',
  'down',
  'calmer',
]);
const multiplyWords: Record<string, number> = { double: 2, twice: 2, triple: 3, half: 0.5, halve: 0.5 };
export const onWords = new Set(['on', 'show', 'enable', 'start', 'true', 'display', 'play', 'yes', 'add']);
export const offWords = new Set([
  'off',
  'hide',
  'disable',
  'stop',
  'false',
  'no',
  'without',
  'remove',
  'pause',
  'mute',
]);

/** A value for the parameter from the clause, or why there is none. */
export type ValueOutcome =
  { readonly kind: 'value'; readonly value: unknown } | { readonly kind: 'missing'; readonly reason: string };

export function valueFromClause(parameter: DemoParameter, clause: string, original: string): ValueOutcome {
  const words = requestWords(clause);
  switch (parameter.type) {
    case 'boolean':
      return booleanValue(parameter, words);
    case 'enum':
      return enumValue(parameter, clause, original);
    case 'color': {
      const color = colorIn(words);
      return color ? { kind: 'value', value: color } : missing(`name a colour (such as red, blue, warm or #ff8800)`);
    }
    case 'array':
      return arrayValue(parameter, clause);
    case 'string': {
      const text = quotedText(original) ?? original.match(/\bto\s+(.+)$/i)?.[1]?.trim();
      return text ? { kind: 'value', value: text } : missing('put the new text in quotes');
    }
    default:
      return numberValue(parameter, clause, words);
  }
}

function missing(reason: string): ValueOutcome {
  return { kind: 'missing', reason };
}

function booleanValue(parameter: DemoParameter, words: readonly string[]): ValueOutcome {
  if (words.includes('toggle')) return { kind: 'value', value: parameter.value !== true };
  const off = words.some((word) => offWords.has(word));
  const on = words.some((word) => onWords.has(word));
  if (off) return { kind: 'value', value: false };
  if (on) return { kind: 'value', value: true };
  return missing('say on or off');
}

/** Short options such as the note "A" only count written in capitals and not first, so the article "a" is no note. */
function enumValue(parameter: DemoParameter, clause: string, original: string): ValueOutcome {
  const options = [...(parameter.options ?? [])].sort((left, right) => right.length - left.length);
  for (const option of options) {
    if (option.length <= 2) {
      const tokens = original.split(/[\s,.;!?]+/);
      if (tokens.slice(1).includes(option)) return { kind: 'value', value: option };
      continue;
    }
    const escaped = option.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (new RegExp(`(^|[^a-z-])${escaped}($|[^a-z-])`).test(clause)) return { kind: 'value', value: option };
  }
  if (/\bnext\b/.test(clause) && parameter.options) {
    const index = parameter.options.indexOf(String(parameter.value));
    return { kind: 'value', value: parameter.options[(index + 1) % parameter.options.length] };
  }
  return missing(`pick one of ${listOf(parameter.options ?? [])}`);
}

function arrayValue(parameter: DemoParameter, clause: string): ValueOutcome {
  const numbers = numbersWithUnits(clause).map((number) => number.value);
  const length = parameter.length ?? 0;
  if (numbers.length === length) return { kind: 'value', value: numbers.map((number) => clamp(parameter, number)) };
  return missing(`give ${length} numbers, such as ${JSON.stringify(parameter.value)}`);
}

function numberValue(parameter: DemoParameter, clause: string, words: readonly string[]): ValueOutcome {
  const current = typeof parameter.value === 'number' ? parameter.value : 0;
  const numbers = numbersWithUnits(clause);
  const multiplier = words.map((word) => multiplyWords[word]).find((factor) => factor !== undefined);
  if (multiplier !== undefined) return { kind: 'value', value: fitted(parameter, current * multiplier) };
  const up = words.some((word) => increaseWords.has(word));
  const down = words.some((word) => decreaseWords.has(word));
  if (numbers.length > 0) {
    const converted = convertToUnit(numbers[0]!, parameter.unit);
    if (converted === undefined) return missing(`give a value in ${parameter.unit ?? 'its own unit'}`);
    if (/\bby\b/.test(clause))
      return { kind: 'value', value: fitted(parameter, current + (down ? -1 : 1) * converted) };
    return { kind: 'value', value: fitted(parameter, asFraction(parameter, numbers[0]!.unit, converted)) };
  }
  if (up || down) return { kind: 'value', value: fitted(parameter, stepped(parameter, current, up ? 1 : -1)) };
  return missing(`give a number${rangeText(parameter)}`);
}

/** "noise 50" on a 0–1 fraction means 50 %. */
function asFraction(parameter: DemoParameter, unit: string | undefined, value: number): number {
  const isFraction = parameter.min === 0 && parameter.max === 1;
  return isFraction && unit === undefined && value > 1 && value <= 100 ? value / 100 : value;
}

/** Half as much again (or back) for positive quantities; a tenth of the range for those around zero or below it. */
function stepped(parameter: DemoParameter, current: number, direction: 1 | -1): number {
  const range = (parameter.max ?? current * 2 + 10) - (parameter.min ?? 0);
  if ((parameter.min ?? 0) >= 0 && current > 0) return direction > 0 ? current * 1.5 : current / 1.5;
  return current + (direction * range) / 10;
}

function fitted(parameter: DemoParameter, value: number): number {
  const step = parameter.type === 'integer' ? Math.max(1, parameter.step ?? 1) : parameter.step;
  const rounded = step ? roundToStep(value, step, parameter.min ?? 0) : value;
  return clamp(parameter, rounded);
}

function roundToStep(value: number, step: number, base: number): number {
  const decimals = (String(step).split('.')[1] ?? '').length;
  return Number((base + Math.round((value - base) / step) * step).toFixed(decimals));
}

function clamp(parameter: DemoParameter, value: number): number {
  return Math.min(parameter.max ?? Infinity, Math.max(parameter.min ?? -Infinity, value));
}

function quotedText(text: string): string | undefined {
  return text.match(/["“']([^"”']+)["”']/)?.[1];
}

export function rangeText(parameter: DemoParameter): string {
  if (parameter.min === undefined || parameter.max === undefined) return '';
  return ` from ${parameter.min} to ${parameter.max}${parameter.unit ? ` ${parameter.unit}` : ''}`;
}

export function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}
