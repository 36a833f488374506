import { describe, expect, it } from 'vitest';
import { tokenUsageFromSdk } from './token-usage-from-sdk';

describe('tokenUsageFromSdk', () => {
  it('reads AI SDK 6 usage, reasoning and cache reads from their details', () => {
    expect(
      tokenUsageFromSdk({
        inputTokens: 1234,
        outputTokens: 56,
        inputTokenDetails: { cacheReadTokens: 1000 },
        outputTokenDetails: { reasoningTokens: 12 },
      }),
    ).toEqual({ inputTokens: 1234, outputTokens: 56, reasoningTokens: 12, cachedInputTokens: 1000 });
  });

  it('falls back to the deprecated flat fields', () => {
    expect(tokenUsageFromSdk({ reasoningTokens: 3, cachedInputTokens: 7 })).toEqual({
      reasoningTokens: 3,
      cachedInputTokens: 7,
    });
  });

  it('leaves out what the provider did not report, never 0', () => {
    const usage = tokenUsageFromSdk({
      inputTokens: 10,
      outputTokens: undefined,
      inputTokenDetails: { cacheReadTokens: undefined },
      outputTokenDetails: { reasoningTokens: undefined },
    });
    expect(usage).toEqual({ inputTokens: 10 });
    expect(Object.keys(usage ?? {})).toEqual(['inputTokens']);
  });

  it('is undefined when nothing was reported', () => {
    expect(tokenUsageFromSdk(undefined)).toBeUndefined();
    expect(tokenUsageFromSdk({ inputTokens: undefined, outputTokens: undefined })).toBeUndefined();
  });

  it('drops figures that are not whole non-negative numbers', () => {
    expect(tokenUsageFromSdk({ inputTokens: Number.NaN, outputTokens: -1, reasoningTokens: 1.5 })).toBeUndefined();
  });
});
