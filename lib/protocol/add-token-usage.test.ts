import { describe, expect, it } from 'vitest';
import { addTokenUsage } from './add-token-usage';

describe('addTokenUsage', () => {
  it('sums figure by figure', () => {
    expect(
      addTokenUsage(
        { inputTokens: 10, outputTokens: 2, reasoningTokens: 1, cachedInputTokens: 4 },
        { inputTokens: 5, outputTokens: 3, reasoningTokens: 2, cachedInputTokens: 1 },
      ),
    ).toEqual({ inputTokens: 15, outputTokens: 5, reasoningTokens: 3, cachedInputTokens: 5 });
  });

  it('keeps a figure absent from both absent, and a figure reported once as that figure', () => {
    expect(addTokenUsage({ inputTokens: 10 }, { outputTokens: 3 })).toEqual({ inputTokens: 10, outputTokens: 3 });
    expect(addTokenUsage({ inputTokens: 10 }, { inputTokens: 1 })).not.toHaveProperty('reasoningTokens');
  });

  it('keeps a reported zero', () => {
    expect(addTokenUsage(undefined, { reasoningTokens: 0 })).toEqual({ reasoningTokens: 0 });
  });

  it('is undefined while nothing was reported', () => {
    expect(addTokenUsage(undefined, undefined)).toBeUndefined();
    expect(addTokenUsage(undefined, {})).toBeUndefined();
  });

  it('does not change its arguments', () => {
    const total = { inputTokens: 1 };
    addTokenUsage(total, { inputTokens: 2 });
    expect(total).toEqual({ inputTokens: 1 });
  });
});
