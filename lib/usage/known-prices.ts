import type { ModelPrice } from './model-price';

/** When the shipped prices were read from the providers' pricing pages; they change, so the user can edit them. */
export const KNOWN_PRICES_DATE = '2025-06-01';

const asOf = KNOWN_PRICES_DATE;

/** A few well-known models, US dollars per million tokens, standard (not batch) rates. */
export const KNOWN_PRICES: readonly ModelPrice[] = [
  { model: 'gpt-4o', inputPerMillion: 2.5, outputPerMillion: 10, cachedInputPerMillion: 1.25, asOf },
  { model: 'gpt-4o-mini', inputPerMillion: 0.15, outputPerMillion: 0.6, cachedInputPerMillion: 0.075, asOf },
  { model: 'gpt-4.1', inputPerMillion: 2, outputPerMillion: 8, cachedInputPerMillion: 0.5, asOf },
  { model: 'gpt-4.1-mini', inputPerMillion: 0.4, outputPerMillion: 1.6, cachedInputPerMillion: 0.1, asOf },
  { model: 'claude-sonnet-4', inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3, asOf },
  { model: 'claude-3-5-haiku', inputPerMillion: 0.8, outputPerMillion: 4, cachedInputPerMillion: 0.08, asOf },
  { model: 'gemini-2.5-flash', inputPerMillion: 0.3, outputPerMillion: 2.5, cachedInputPerMillion: 0.075, asOf },
  { model: 'gemini-2.5-pro', inputPerMillion: 1.25, outputPerMillion: 10, cachedInputPerMillion: 0.31, asOf },
];
