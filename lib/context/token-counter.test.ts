import { describe, expect, it } from 'vitest';
import { countInSlices, LONG_RUN_SLICE, loadTokenCounter } from './token-counter';

describe('the token counter', () => {
  it('counts prose exactly as the encoding does', async () => {
    const counter = await loadTokenCounter();
    expect(counter.count('The quick brown fox jumps over the lazy dog.')).toBe(10);
    expect(counter.count('')).toBe(0);
  });

  it('counts special-token text as text', async () => {
    const counter = await loadTokenCounter();
    expect(counter.count('<|endoftext|>')).toBeGreaterThan(1);
  });

  it('counts a pasted 200,000-character word, which the encoding alone takes minutes over', async () => {
    const counter = await loadTokenCounter();
    // cl100k_base encodes eight x's as one token: the run is 25,000 tokens however it is sliced.
    expect(counter.count('x'.repeat(200_000))).toBe(25_000);
    // The space before the run, one token with its first x's to the encoding, is one of its own here.
    expect(counter.count(`Store this: ${'x'.repeat(200_000)}.`)).toBe(4 + 25_000 + 1);
  });

  it('counts Chinese without punctuation, one long word to the encoding, a slice at a time', async () => {
    const counter = await loadTokenCounter();
    const text = '语言模型驱动只存在于用户浏览器中的东西'.repeat(2_000);
    const direct = await import('gpt-tokenizer/encoding/cl100k_base').then(({ countTokens }) =>
      countTokens(text.slice(0, 400)),
    );
    expect(counter.count(text.slice(0, 400))).toBeGreaterThanOrEqual(direct);
    expect(counter.count(text.slice(0, 400))).toBeLessThanOrEqual(direct + Math.ceil(400 / LONG_RUN_SLICE));
    expect(counter.count(text)).toBeGreaterThan(text.length / 2);
  });

  it('slices only runs longer than a slice, and never between the halves of a surrogate pair', () => {
    const seen: string[] = [];
    const count = (text: string) => {
      seen.push(text);
      return text.length;
    };
    const emoji = '😀'.repeat(40);
    expect(countInSlices(count, `short words ${emoji} end`)).toBe(`short words ${emoji} end`.length);
    expect(seen.every((slice) => !/[\uD800-\uDBFF]$/.test(slice))).toBe(true);
    expect(seen.some((slice) => slice.length > LONG_RUN_SLICE + 1)).toBe(false);
    seen.length = 0;
    countInSlices(count, 'no long run here');
    expect(seen).toEqual(['no long run here']);
  });
});
