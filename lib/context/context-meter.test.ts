import { describe, expect, it } from 'vitest';
import { compactTokens, contextMeterOf } from './context-meter';

const window = { windowTokens: 12_000, reserveTokens: 1_000, source: 'profile' as const };

describe('the context meter', () => {
  it('shows nothing before the first step', () => {
    expect(contextMeterOf(undefined, 0, window)).toBeUndefined();
  });

  it('is the latest prompt against the window less the reserve, with the compactions so far', () => {
    expect(contextMeterOf({ tokens: 7_700, reported: true }, 2, window)).toEqual({
      usedTokens: 7_700,
      limitTokens: 11_000,
      windowTokens: 12_000,
      share: 0.7,
      reported: true,
      compactions: 2,
      source: 'profile',
    });
  });

  it('writes token counts short', () => {
    expect(compactTokens(950)).toBe('950');
    expect(compactTokens(7_768)).toBe('7.8k');
    expect(compactTokens(11_000)).toBe('11k');
    expect(compactTokens(128_000)).toBe('128k');
  });
});
