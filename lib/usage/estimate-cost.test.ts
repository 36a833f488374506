import { describe, expect, it } from 'vitest';
import { estimateCost, estimateCostByModel, formatCost } from './estimate-cost';
import { KNOWN_PRICES } from './known-prices';
import { priceForModel } from './model-price';

const price = { model: 'm', inputPerMillion: 2, outputPerMillion: 10, cachedInputPerMillion: 0.5 };

describe('estimateCost', () => {
  it('charges cached input at its rate and the rest of the input at the input rate', () => {
    expect(estimateCost({ inputTokens: 1_000_000, outputTokens: 100_000, cachedInputTokens: 400_000 }, price)).toBe(
      0.6 * 2 + 0.4 * 0.5 + 1,
    );
  });

  it('uses the input rate for cached tokens when the model has no cached rate', () => {
    expect(
      estimateCost(
        { inputTokens: 1_000_000, cachedInputTokens: 1_000_000 },
        { ...price, cachedInputPerMillion: undefined },
      ),
    ).toBe(2);
  });

  it('sums per model, and names the models without a price', () => {
    const estimate = estimateCostByModel(
      { m: { inputTokens: 1_000_000 }, unknown: { inputTokens: 5 }, '': { outputTokens: 5 } },
      [price],
    );
    expect(estimate).toEqual({ dollars: 2, unpriced: ['unknown', ''] });
    expect(estimateCostByModel({ unknown: { inputTokens: 5 } }, [price])).toBeUndefined();
    expect(estimateCostByModel(undefined, [price])).toBeUndefined();
  });

  it('formats as an estimate, with enough digits for a cheap turn', () => {
    expect(formatCost(0.00123, 'en-US')).toBe('≈ $0.0012');
    expect(formatCost(0.5, 'en-US')).toBe('≈ $0.500');
    expect(formatCost(12.345, 'en-US')).toBe('≈ $12.35');
  });
});

describe('priceForModel', () => {
  it('takes the exact name, else the longest known prefix (dated model versions)', () => {
    expect(priceForModel(KNOWN_PRICES, 'gpt-4o-mini')?.model).toBe('gpt-4o-mini');
    expect(priceForModel(KNOWN_PRICES, 'gpt-4o-2024-08-06')?.model).toBe('gpt-4o');
    expect(priceForModel(KNOWN_PRICES, 'Claude-Sonnet-4-20250514')?.model).toBe('claude-sonnet-4');
    expect(priceForModel(KNOWN_PRICES, 'llama3')).toBeUndefined();
    expect(priceForModel(KNOWN_PRICES, undefined)).toBeUndefined();
  });

  it('ships every known price with its date', () => {
    for (const known of KNOWN_PRICES) expect(known.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
