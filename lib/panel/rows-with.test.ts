import { describe, expect, it } from 'vitest';
import { rowsWith } from './rows-with';

describe('rowsWith', () => {
  it('adds a row past the rendered range in its place', () => {
    expect(rowsWith([0, 1, 2, 3, 4], 5)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(rowsWith([4, 5, 6], 1)).toEqual([1, 4, 5, 6]);
  });

  it('leaves the range alone when the row is in it, or there is none', () => {
    expect(rowsWith([2, 3, 4], 3)).toEqual([2, 3, 4]);
    expect(rowsWith([2, 3, 4], undefined)).toEqual([2, 3, 4]);
    expect(rowsWith([], -1)).toEqual([]);
  });
});
