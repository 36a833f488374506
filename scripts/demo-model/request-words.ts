/** Lower-case words of a request: numbers (with a sign and decimals), #rrggbb colours, and words with inner `#`, `'` or `-`. */
export function requestWords(text: string): string[] {
  return text.toLowerCase().match(/#[0-9a-f]{6}\b|\d+[a-z][a-z0-9]*|-?\d+(?:\.\d+)?|[a-z0-9][a-z0-9#'-]*/g) ?? [];
}

/** A crude stem, applied to both sides of every comparison: "particles" and "particle" meet, so do "series" and "sery". */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

export function stems(text: string): string[] {
  return requestWords(text).map(stem);
}

/** Words that say nothing about which parameter is meant. */
export const stopWords = new Set(
  [
    'a',
    'an',
    'the',
    'to',
    'of',
    'and',
    'or',
    'in',
    'on',
    'at',
    'is',
    'it',
    'its',
    'for',
    'with',
    'by',
    'from',
    'as',
    'be',
    'set',
    'make',
    'change',
    'use',
    'please',
    'i',
    'me',
    'my',
    'you',
    'can',
    'this',
    'that',
    'here',
    'now',
    'so',
    'bit',
    'little',
    'lot',
    'much',
    'very',
    'some',
    'them',
    'they',
    'their',
    'are',
    'each',
    'one',
    'how',
    'what',
    'when',
    'which',
    'while',
    'about',
    'into',
    'up',
    'down',
    'more',
    'less',
    'than',
    'is',
    'was',
    'all',
    'give',
    'put',
    'turn',
    'let',
    'try',
    'get',
    'go',
    'do',
    'want',
    'would',
    'like',
    'could',
    'should',
    'just',
  ].map(stem),
);
