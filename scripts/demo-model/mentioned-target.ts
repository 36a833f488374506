import type { DemoTarget } from './demo-tool-results';
import { changeSynonyms } from './parameter-synonyms';
import { decreaseWords, increaseWords, offWords, onWords } from './parameter-value';
import { requestWords, stem } from './request-words';

/** Title words that name no target on their own ("field of view" is no particle field). */
const genericTitleWords = new Set(['field', 'data', 'step', 'playground', 'app', 'demo', 'target'].map(stem));
/** Words that say how to change something: "slow the tempo" names no "Slow counter". */
const changeWords = new Set(
  [...Object.keys(changeSynonyms), ...increaseWords, ...decreaseWords, ...onWords, ...offWords].map(stem),
);

export interface TargetMention {
  readonly target: DemoTarget;
  /** The request's words that named it, as written (lower case). */
  readonly words: readonly string[];
}

/** The target the request names by id or title word ("synth" for the synthesizer); the one named most wins. */
export function mentionedTarget(request: string, targets: readonly DemoTarget[]): TargetMention | undefined {
  const words = requestWords(request);
  let best: TargetMention | undefined;
  for (const target of targets) {
    const names = new Set(
      [target.id, ...requestWords(target.title)].map(stem).filter((name) => !genericTitleWords.has(name)),
    );
    const hits = words.filter(
      (word) =>
        !changeWords.has(stem(word)) && [...names].some((name) => names.has(stem(word)) || isShortFor(word, name)),
    );
    if (hits.length > (best?.words.length ?? 0)) best = { target, words: hits };
  }
  return best;
}

/** "synth" for "synthesizer": a prefix of five letters or more. */
function isShortFor(word: string, name: string): boolean {
  return word.length >= 5 && name.startsWith(word);
}
