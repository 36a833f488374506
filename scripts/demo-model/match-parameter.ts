import { colorIn } from './color-words';
import type { DemoParameter } from './demo-tool-results';
import { foreignNaming, isChangingWord, noForeignNames, type ForeignNames, type ForeignNaming } from './foreign-names';
import { decreaseWords, increaseWords, offWords, onWords, valueFromClause } from './parameter-value';
import { synonymsOf } from './parameter-synonyms';
import { requestWords, stem, stopWords } from './request-words';
import { numbersWithUnits, unitMeaning } from './unit-words';

export type ParameterMatch =
  | { readonly kind: 'found'; readonly parameter: DemoParameter }
  | { readonly kind: 'ambiguous'; readonly candidates: readonly DemoParameter[] }
  | { readonly kind: 'none' };

const threshold = 2.5;

/**
 * The parameter a clause is about, scored by its name, group, options, unit, type and description words. A clause
 * that names another target's parameter (`foreign`: "tempo" or "text color" on the particle field) is matched by
 * this target's own names (or other names for them, "camera" for position) and options alone: "slow" is no
 * speed when the clause says it is a tempo.
 */
export function matchParameter(
  clause: string,
  original: string,
  parameters: readonly DemoParameter[],
  foreign: ForeignNames = noForeignNames,
): ParameterMatch {
  const words = requestWords(clause);
  const elsewhere = foreignNaming(clause, foreign);
  const clauseStems = new Set(words.map(stem));
  for (const word of words) for (const meant of synonymsOf(word, stem(word), !elsewhere.named)) clauseStems.add(meant);
  const scored = parameters
    .map((parameter) => ({ parameter, score: scoreOf(parameter, clause, original, words, clauseStems, elsewhere) }))
    .filter((entry) => entry.score >= threshold)
    .sort((left, right) => right.score - left.score);
  // A parameter the clause gives no value for is not what it means when another one gets a value from it.
  const valued = scored.filter((entry) => valueFromClause(entry.parameter, clause, original).kind === 'value');
  return pick(valued.length > 0 ? valued : scored);
}

function pick(scored: readonly { parameter: DemoParameter; score: number }[]): ParameterMatch {
  const [best, second] = scored;
  if (!best) return { kind: 'none' };
  if (second && best.score - second.score < 0.75) {
    return {
      kind: 'ambiguous',
      candidates: scored.filter((entry) => best.score - entry.score < 0.75).map((entry) => entry.parameter),
    };
  }
  return { kind: 'found', parameter: best.parameter };
}

function scoreOf(
  parameter: DemoParameter,
  clause: string,
  original: string,
  words: readonly string[],
  clauseStems: ReadonlySet<string>,
  elsewhere: ForeignNaming,
): number {
  const nameStems = parameter.name.split('_').map(stem);
  const matched = nameStems.filter((part) => clauseStems.has(part)).length;
  const named = (4 * matched) / nameStems.length + (matched === nameStems.length ? 1 : 0);
  const option = optionScore(parameter, clause, original);
  if (elsewhere.named && option === 0 && !namesItself(nameStems, clauseStems, elsewhere.partsNeeded)) return 0;
  let score = named + option;
  if (clauseStems.has(stem(parameter.group))) score += 1;
  score += unitScore(parameter, clause);
  score += typeScore(parameter, words);
  score += descriptionScore(parameter, clauseStems);
  return score;
}

/** By a word that is no verb ("show" is not show_grid) and, against "text color" elsewhere, by its whole name of as many words. */
function namesItself(nameStems: readonly string[], clauseStems: ReadonlySet<string>, partsNeeded: number): boolean {
  if (partsNeeded > 0) return nameStems.length >= partsNeeded && nameStems.every((part) => clauseStems.has(part));
  return nameStems.some((part) => clauseStems.has(part) && !isChangingWord(part));
}

function optionScore(parameter: DemoParameter, clause: string, original: string): number {
  if (parameter.type !== 'enum') return 0;
  const tokens = original.split(/[\s,.;!?]+/).slice(1);
  const named = (parameter.options ?? []).some((option) =>
    option.length <= 2
      ? tokens.includes(option)
      : new RegExp(`(^|[^a-z-])${option.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^a-z-])`).test(clause),
  );
  return named ? 3 : 0;
}

function unitScore(parameter: DemoParameter, clause: string): number {
  const target = unitMeaning(parameter.unit);
  const named = numbersWithUnits(clause).filter((number) => number.unit !== undefined);
  if (named.length === 0) return 0;
  const sameFamily = named.some((number) => unitMeaning(number.unit)?.family === target?.family);
  return target && sameFamily ? 2.5 : -3;
}

function typeScore(parameter: DemoParameter, words: readonly string[]): number {
  switch (parameter.type) {
    case 'color':
      return colorIn(words) ? 3 : 0;
    case 'boolean': {
      const ownWords = parameter.name.split('_');
      const switching = (word: string) => onWords.has(word) || offWords.has(word) || word === 'toggle';
      const numbered = words.some((word) => /^-?\d/.test(word));
      return (words.some((word) => switching(word) && !ownWords.includes(word)) ? 1 : 0) - (numbered ? 1 : 0);
    }
    case 'array':
      return numbersWithUnits(words.join(' ')).length === parameter.length ? 1.5 : 0;
    case 'number':
    case 'integer':
      if (words.some((word) => /^-?\d/.test(word))) return 1;
      return words.some((word) => increaseWords.has(word) || decreaseWords.has(word)) ? 0.5 : 0;
    default:
      return 0;
  }
}

function descriptionScore(parameter: DemoParameter, clauseStems: ReadonlySet<string>): number {
  const described = new Set(requestWords(parameter.description ?? '').map(stem));
  let overlap = 0;
  for (const word of clauseStems) if (!stopWords.has(word) && word.length > 2 && described.has(word)) overlap += 1;
  return Math.min(1.5, overlap * 0.5);
}
