import { describe, expect, it } from 'vitest';
import { MAX_MARKS, marksFor, marksLegend } from './set-of-marks';

const viewport = { width: 800, height: 600 };
const box = (x: number, y: number, width = 50, height = 20) => ({ x, y, width, height });

describe('marksFor', () => {
  it('numbers the top-frame refs in view in reading order, clipped to the viewport, containers left out', () => {
    const marks = marksFor(
      {
        e1: { role: 'button', box: box(300, 100) },
        e2: { role: 'link', box: box(10, 100) },
        e3: { role: 'textbox', box: box(10, 20) },
        e4: { role: 'button', box: box(10, 900) },
        e5: { role: 'region', box: box(0, 0, 800, 600) },
        f1e2: { role: 'button', box: box(10, 10) },
        e6: { role: 'checkbox', box: box(780, 590) },
      },
      viewport,
    );
    expect(marks).toEqual([
      { mark: 1, ref: 'e3', box: box(10, 20) },
      { mark: 2, ref: 'e2', box: box(10, 100) },
      { mark: 3, ref: 'e1', box: box(300, 100) },
      { mark: 4, ref: 'e6', box: box(780, 590, 20, 10) },
    ]);
    expect(marksLegend(marks)).toEqual({ 1: 'e3', 2: 'e2', 3: 'e1', 4: 'e6' });
  });

  it('marks at most MAX_MARKS boxes', () => {
    const refs = Object.fromEntries(
      Array.from({ length: MAX_MARKS + 30 }, (_, index) => [`e${index}`, { role: 'button', box: box(0, index) }]),
    );
    expect(marksFor(refs, viewport)).toHaveLength(MAX_MARKS);
  });
});
