import type { Encoder } from 'flexsearch';

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The words of `text` that the query matched, as the index matches them: a word matches a query word when the
 * encoded query word begins one of the word's encoded forms (a prefix, or a word that sounds alike). Lower case,
 * each once, in the order they appear: the panel marks them in the snippet.
 */
export function matchedTerms(text: string, query: string, encoder: Encoder): string[] {
  const wanted = encoder.encode(query);
  const found = new Set<string>();
  for (const [word] of text.matchAll(WORD)) {
    const lower = word.toLowerCase();
    if (found.has(lower)) continue;
    if (encoder.encode(word).some((form) => wanted.some((term) => form.startsWith(term)))) found.add(lower);
  }
  return [...found];
}
