import { describe, expect, it } from 'vitest';
import { framesUpToByte } from './frames-up-to-byte';

describe('framesUpToByte', () => {
  it('keeps whole frames and the start of the frame the cut falls in', () => {
    expect(framesUpToByte(['abc', 'defg', 'h'], 5)).toEqual(['abc', 'de']);
    expect(framesUpToByte(['abc', 'defg'], 3)).toEqual(['abc']);
    expect(framesUpToByte(['abc'], 0)).toEqual([]);
    expect(framesUpToByte(['abc', 'd'], 99)).toEqual(['abc', 'd']);
  });

  it('moves a cut inside a multi-byte character back to its start', () => {
    expect(framesUpToByte(['aé'], 2)).toEqual(['a']);
    expect(framesUpToByte(['aé'], 3)).toEqual(['aé']);
    expect(framesUpToByte(['好'], 2)).toEqual([]);
  });
});
