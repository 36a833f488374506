import { namedColors } from './color-words';
import type { DemoParameter, DemoSchema } from './demo-tool-results';
import { decreaseWords, increaseWords, offWords, onWords } from './parameter-value';
import { nameSynonyms } from './parameter-synonyms';
import { requestWords, stem, stopWords } from './request-words';

/** How other targets name their parameters, as far as the active target does not. */
export interface ForeignNames {
  /**
   * Stems that name a parameter or an option of another target and nothing on the active one: "tempo" and
   * "triangle" on the particle field, "rotation" (a word for spin) on the synthesizer.
   */
  readonly words: ReadonlySet<string>;
  /** Other targets' names of several words the active target has no parameter of: line_width on typography. */
  readonly compounds: readonly (readonly string[])[];
}

export const noForeignNames: ForeignNames = { words: new Set(), compounds: [] };

/** How a clause names another target's parameter, and what a parameter of this target then takes to be meant. */
export interface ForeignNaming {
  /** The clause names one: it is matched by this target's own names and options, not by "faster" or a colour. */
  readonly named: boolean;
  /** The most name parts of another target's parameter the clause has all of ("text color": 2); a parameter here must have as many. */
  readonly partsNeeded: number;
}

/** Words that say how to change a value or what to, not which one: "show" or "blue" (a blues scale) name nothing. */
const changingWords = new Set(
  [...increaseWords, ...decreaseWords, ...onWords, ...offWords, ...Object.keys(namedColors), 'look'].map(stem),
);
/** "light" and "dark" before a colour are part of it ("light blue"), not the 3D scene's light or dark mode. */
const shades = new Set(['light', 'dark', 'pale', 'deep']);

export function foreignNames(active: DemoSchema, others: readonly DemoSchema[]): ForeignNames {
  const own = vocabularyOf(active);
  const ownNames = new Set(active.parameters.flatMap(nameStems));
  const otherNames = new Set(others.flatMap((schema) => schema.parameters.flatMap(namingStems)));
  const words = new Set<string>();
  for (const word of otherNames) if (!own.has(word) && isDistinctive(word)) words.add(word);
  for (const [word, meanings] of Object.entries(nameSynonyms)) {
    const meansOnlyOthers =
      meanings.every((meant) => !ownNames.has(meant)) && meanings.some((meant) => otherNames.has(meant));
    if (meansOnlyOthers && !own.has(stem(word)) && isDistinctive(stem(word))) words.add(stem(word));
  }
  const activeNames = new Set(active.parameters.map((parameter) => parameter.name));
  const compounds = others
    .flatMap((schema) => schema.parameters)
    .filter((parameter) => parameter.name.includes('_') && !activeNames.has(parameter.name))
    .map(nameStems);
  return { words, compounds };
}

export function foreignNaming(clause: string, foreign: ForeignNames): ForeignNaming {
  const words = requestWords(clause);
  const stems = new Set(words.map(stem));
  const isShade = (word: string, index: number) =>
    shades.has(word) && Object.hasOwn(namedColors, words[index + 1] ?? '');
  const hasWord = words.some((word, index) => foreign.words.has(stem(word)) && !isShade(word, index));
  const named = foreign.compounds.filter((parts) => parts.every((part) => stems.has(part)));
  const partsNeeded = Math.max(0, ...named.map((parts) => parts.length));
  return { named: hasWord || partsNeeded > 0, partsNeeded };
}

/** "show" in show_grid says how, not what: alone it does not name show_grid in a clause about another target. */
export function isChangingWord(word: string): boolean {
  return changingWords.has(stem(word));
}

function nameStems(parameter: DemoParameter): string[] {
  return parameter.name.split('_').map(stem);
}

/** The words a parameter is called by: its name and its options. */
function namingStems(parameter: DemoParameter): string[] {
  return [...nameStems(parameter), ...(parameter.options ?? []).flatMap((option) => requestWords(option).map(stem))];
}

/** Every word the active target uses for itself, descriptions and title included ("wave" is in a particle mode). */
function vocabularyOf(schema: DemoSchema): Set<string> {
  const texts = [
    schema.title,
    ...schema.parameters.flatMap((parameter) => [parameter.group, parameter.unit ?? '', parameter.description ?? '']),
  ];
  return new Set([...schema.parameters.flatMap(namingStems), ...texts.flatMap((text) => requestWords(text).map(stem))]);
}

function isDistinctive(word: string): boolean {
  return word.length > 2 && !/^\d/.test(word) && !stopWords.has(word) && !changingWords.has(word);
}
