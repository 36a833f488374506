/** Counts the tokens of a text; the tokenizer the estimate uses, or a stand-in in tests. */
export interface TokenCounter {
  count(text: string): number;
}

let loading: Promise<TokenCounter> | undefined;

/**
 * js-tiktoken's cl100k_base encoding, loaded once and on first use (its ranks are about 1 MB, a chunk of their own).
 * One encoding for every provider: it is within a few percent for most models, and the calibration against the
 * input tokens each provider reports corrects the rest.
 */
export function loadTokenCounter(): Promise<TokenCounter> {
  loading ??= Promise.all([import('js-tiktoken/lite'), import('js-tiktoken/ranks/cl100k_base')]).then(
    ([{ Tiktoken }, ranks]) => {
      const encoding = new Tiktoken(ranks.default);
      // Special-token text in a page or a result is counted as text, never refused.
      return { count: (text: string) => encoding.encode(text, [], []).length };
    },
  );
  return loading;
}
