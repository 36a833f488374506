/** Counts the tokens of a text; the tokenizer the estimate uses, or a stand-in in tests. */
export interface TokenCounter {
  count(text: string): number;
}

/** Longer runs without whitespace are counted a slice at a time (see `countInSlices`). */
export const LONG_RUN_SLICE = 64;
const LONG_RUN = new RegExp(`\\S{${LONG_RUN_SLICE + 1},}`, 'g');

let loading: Promise<TokenCounter> | undefined;

/**
 * gpt-tokenizer's cl100k_base encoding, loaded once and on first use (its ranks are about 1 MB, a chunk of their
 * own). One encoding for every provider: it is within a few percent for most models, and the calibration against
 * the input tokens each provider reports corrects the rest.
 */
export function loadTokenCounter(): Promise<TokenCounter> {
  loading ??= import('gpt-tokenizer/encoding/cl100k_base').then(({ countTokens }) => {
    // Special-token text in a page or a result is counted as text, never refused.
    const count = (text: string) => countTokens(text, { disallowedSpecial: new Set() });
    return { count: (text: string) => countInSlices(count, text) };
  });
  return loading;
}

/**
 * Byte-pair encoding takes time quadratic in the length of a word: a pasted 200,000-character run of letters (a
 * base64 image without padding, a word of one repeated letter, Chinese without punctuation) took minutes and held
 * the turn. Every run without whitespace longer than a slice is counted a slice at a time, which costs at most a
 * token per slice where a slice boundary cuts one.
 */
export function countInSlices(count: (text: string) => number, text: string): number {
  let total = 0;
  let from = 0;
  for (const run of text.matchAll(LONG_RUN)) {
    total += count(text.slice(from, run.index));
    for (let start = 0; start < run[0].length;) {
      let end = Math.min(start + LONG_RUN_SLICE, run[0].length);
      if (isHighSurrogate(run[0].charCodeAt(end - 1)) && end < run[0].length) end += 1;
      total += count(run[0].slice(start, end));
      start = end;
    }
    from = run.index + run[0].length;
  }
  return total + count(text.slice(from));
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
