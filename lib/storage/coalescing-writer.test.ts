import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CoalescingWriter } from './coalescing-writer';

describe('CoalescingWriter', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function writer() {
    const writes: Record<string, number>[] = [];
    let release: (() => void) | undefined;
    let hold = false;
    const instance = new CoalescingWriter<number>({
      delayMs: 200,
      write: async (items) => {
        writes.push(items);
        if (hold) await new Promise<void>((resolve) => (release = resolve));
      },
    });
    return { instance, writes, holdWrites: () => (hold = true), release: () => release?.() };
  }

  it('writes a burst of changes once, with the last value of each key', async () => {
    const { instance, writes } = writer();
    for (let value = 1; value <= 50; value++) instance.set('a', value);
    instance.set('b', 7);
    expect(writes).toEqual([]);
    expect(instance.latest('a')).toBe(50);
    await vi.advanceTimersByTimeAsync(200);
    expect(writes).toEqual([{ a: 50, b: 7 }]);
    expect(instance.latest('a')).toBeUndefined();
  });

  it('flush writes at once and never loses the last value', async () => {
    const { instance, writes } = writer();
    instance.set('a', 1);
    await instance.flush();
    expect(writes).toEqual([{ a: 1 }]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(writes).toEqual([{ a: 1 }]);
  });

  it('keeps writes in order and reports a value set during a write as not written yet', async () => {
    const { instance, writes, holdWrites, release } = writer();
    holdWrites();
    instance.set('a', 1);
    const first = instance.flush();
    await vi.advanceTimersByTimeAsync(0);
    instance.set('a', 2);
    const second = instance.flush();
    release();
    await first;
    expect(instance.latest('a')).toBe(2);
    await vi.advanceTimersByTimeAsync(0);
    release();
    await second;
    expect(writes).toEqual([{ a: 1 }, { a: 2 }]);
    expect(instance.latest('a')).toBeUndefined();
  });
});
