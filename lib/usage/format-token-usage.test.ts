import { describe, expect, it } from 'vitest';
import { formatTokenUsage } from './format-token-usage';

describe('formatTokenUsage', () => {
  it('names each reported figure, with thousands separators', () => {
    expect(
      formatTokenUsage({ inputTokens: 1234, outputTokens: 56, reasoningTokens: 12, cachedInputTokens: 1000 }, 'en-US'),
    ).toBe('1,234 in · 56 out · 12 reasoning · 1,000 cached');
  });

  it('leaves out what was not reported, and reasoning or cached figures of 0', () => {
    expect(formatTokenUsage({ outputTokens: 7 }, 'en-US')).toBe('7 out');
    expect(
      formatTokenUsage({ inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedInputTokens: 0 }, 'en-US'),
    ).toBe('0 in · 0 out');
  });

  it('is empty without usage', () => {
    expect(formatTokenUsage(undefined)).toBe('');
    expect(formatTokenUsage({})).toBe('');
  });
});
