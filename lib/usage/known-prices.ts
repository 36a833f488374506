import type { ModelPrice } from './model-price';

/**
 * When the shipped prices were last checked: against the per-token price table GitHub publishes for the models it
 * serves (github/docs, data/tables/copilot/models-and-pricing.yml, which lists the vendors' API prices) and public
 * copies of the providers' pricing pages. They change, so the user can edit them.
 */
export const KNOWN_PRICES_DATE = '2026-12-01';

const asOf = KNOWN_PRICES_DATE;

/**
 * A few well-known models, US dollars per million tokens, standard (not batch) rates, and for models priced by
 * context length the default (shorter-context) tier. A model name matches its entry or the longest entry it starts
 * with, so dated snapshots such as `claude-sonnet-4-5-20250929` find their family.
 */
export const KNOWN_PRICES: readonly ModelPrice[] = [
  { model: 'gpt-5.5', inputPerMillion: 5, outputPerMillion: 30, cachedInputPerMillion: 0.5, asOf },
  { model: 'gpt-5.4', inputPerMillion: 2.5, outputPerMillion: 15, cachedInputPerMillion: 0.25, asOf },
  { model: 'gpt-5.4-mini', inputPerMillion: 0.75, outputPerMillion: 4.5, cachedInputPerMillion: 0.075, asOf },
  { model: 'gpt-5.4-nano', inputPerMillion: 0.2, outputPerMillion: 1.25, cachedInputPerMillion: 0.02, asOf },
  { model: 'gpt-5-mini', inputPerMillion: 0.25, outputPerMillion: 2, cachedInputPerMillion: 0.025, asOf },
  { model: 'gpt-4o', inputPerMillion: 2.5, outputPerMillion: 10, cachedInputPerMillion: 1.25, asOf },
  { model: 'gpt-4o-mini', inputPerMillion: 0.15, outputPerMillion: 0.6, cachedInputPerMillion: 0.075, asOf },
  { model: 'gpt-4.1', inputPerMillion: 2, outputPerMillion: 8, cachedInputPerMillion: 0.5, asOf },
  { model: 'gpt-4.1-mini', inputPerMillion: 0.4, outputPerMillion: 1.6, cachedInputPerMillion: 0.1, asOf },
  { model: 'claude-opus-4-5', inputPerMillion: 5, outputPerMillion: 25, cachedInputPerMillion: 0.5, asOf },
  { model: 'claude-sonnet-4', inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3, asOf },
  { model: 'claude-haiku-4-5', inputPerMillion: 1, outputPerMillion: 5, cachedInputPerMillion: 0.1, asOf },
  { model: 'claude-3-5-haiku', inputPerMillion: 0.8, outputPerMillion: 4, cachedInputPerMillion: 0.08, asOf },
  { model: 'gemini-3.1-pro', inputPerMillion: 2, outputPerMillion: 12, cachedInputPerMillion: 0.2, asOf },
  { model: 'gemini-2.5-flash', inputPerMillion: 0.3, outputPerMillion: 2.5, cachedInputPerMillion: 0.075, asOf },
  { model: 'gemini-2.5-pro', inputPerMillion: 1.25, outputPerMillion: 10, cachedInputPerMillion: 0.31, asOf },
];
