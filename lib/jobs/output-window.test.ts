import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OutputWindow, describeOutput } from './output-window';

const limits = { headBytes: 8, tailBytes: 16, liveChunkBytes: 10 };

describe('OutputWindow', () => {
  it('keeps everything while the output fits, and drops nothing', () => {
    const window = new OutputWindow(limits);
    window.append('hello ');
    window.append('world');
    const summary = window.summary();
    expect(summary.head.text + summary.tail.text).toBe('hello world');
    expect(summary.droppedBytes).toBe(0);
    expect(summary.totalBytes).toBe(11);
    expect(describeOutput(summary)).toBe('hello world');
  });

  it('keeps the head and the tail and counts the dropped bytes exactly', () => {
    const window = new OutputWindow(limits);
    for (let index = 0; index < 100; index++) window.append('0123456789');
    const summary = window.summary();
    expect(summary.totalBytes).toBe(1000);
    expect(summary.head).toEqual({ text: '01234567', from: 0, to: 8 });
    expect(summary.tail).toEqual({ text: '4567890123456789', from: 984, to: 1000 });
    expect(summary.droppedBytes).toBe(976);
    expect(describeOutput(summary)).toContain('976 bytes cut: bytes 8 to 984 of 1000');
  });

  it('counts bytes, not characters', () => {
    const window = new OutputWindow(limits);
    window.append('é€');
    expect(window.totalBytes).toBe(5);
  });

  it('sends live only the newest bytes since the last take, with their offset', () => {
    const window = new OutputWindow(limits);
    window.append('abc');
    expect(window.takeLive()).toEqual({ offset: 0, text: 'abc', totalBytes: 3 });
    window.append('0123456789');
    window.append('xyz');
    expect(window.takeLive()).toEqual({ offset: 6, text: '3456789xyz', totalBytes: 16 });
    expect(window.takeLive()).toBeUndefined();
  });

  it('for any chunking: head + dropped + tail = total, and the kept bytes are the real first and last ones', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 30 }), { maxLength: 40 }), (chunks) => {
        const window = new OutputWindow(limits);
        for (const chunk of chunks) window.append(chunk);
        const all = new TextEncoder().encode(chunks.join(''));
        const summary = window.summary();
        expect(summary.totalBytes).toBe(all.length);
        expect(summary.head.to - summary.head.from + summary.droppedBytes + summary.tail.to - summary.tail.from).toBe(
          all.length,
        );
        expect(summary.tail.to).toBe(all.length);
        expect(summary.head.to).toBe(Math.min(limits.headBytes, all.length));
      }),
      { numRuns: 200 },
    );
  });
});
