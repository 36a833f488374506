import { describe, expect, it } from 'vitest';
import { chunkBytes } from './chunk-bytes';

const bytes = Buffer.from('速度 🚀 speed = 12 m/s, vectors: on ✨'.repeat(4), 'utf8');

describe('chunkBytes', () => {
  it('cuts into pieces of 1 to 5 bytes that reassemble exactly', () => {
    const pieces = chunkBytes(bytes, { seed: 7 });
    for (const piece of pieces) {
      expect(piece.length).toBeGreaterThanOrEqual(1);
      expect(piece.length).toBeLessThanOrEqual(5);
    }
    expect(Buffer.concat(pieces).equals(bytes)).toBe(true);
  });

  it('gives the same pieces for the same seed and different ones for another seed', () => {
    const sizes = (seed: number) => chunkBytes(bytes, { seed }).map((piece) => piece.length);
    expect(sizes(3)).toEqual(sizes(3));
    expect(sizes(3)).not.toEqual(sizes(4));
  });

  it('splits multi-byte characters across pieces', () => {
    const pieces = chunkBytes(bytes, { seed: 1 });
    const splitsACharacter = pieces.some((piece) => !Buffer.from(piece.toString('utf8'), 'utf8').equals(piece));
    expect(splitsACharacter).toBe(true);
  });

  it('honours custom piece sizes and rejects impossible ones', () => {
    const pieces = chunkBytes(bytes, { seed: 1, minPieceBytes: 3, maxPieceBytes: 3 });
    expect(pieces.slice(0, -1).every((piece) => piece.length === 3)).toBe(true);
    expect(() => chunkBytes(bytes, { minPieceBytes: 0 })).toThrow(RangeError);
    expect(() => chunkBytes(bytes, { minPieceBytes: 4, maxPieceBytes: 2 })).toThrow(RangeError);
  });
});
