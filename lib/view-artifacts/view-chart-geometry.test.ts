import { describe, expect, it } from 'vitest';
import { chartGeometry } from './view-chart-geometry';
import { diffView } from './view-diff-lines';
import { nextTableSort, sortedTableRows } from './view-table-rows';

describe('chartGeometry', () => {
  it('a line with a gap is two runs; ticks cover the values', () => {
    const geometry = chartGeometry({
      type: 'line',
      x: { values: [1, 2, 3, 4] },
      series: [{ name: 'fps', values: [10, 20, null, 40] }],
    });
    expect(geometry.paths[0].match(/M/g)).toHaveLength(2);
    expect(geometry.points[0].map((point) => point.value)).toEqual([10, 20, 40]);
    expect(geometry.yTicks.at(0)?.label).toBe('0');
    expect(Number(geometry.yTicks.at(-1)?.label)).toBeGreaterThanOrEqual(40);
  });

  it('bars of two series sit side by side, negative ones below zero', () => {
    const geometry = chartGeometry({
      type: 'bar',
      x: { values: ['a', 'b'] },
      series: [
        { name: 's', values: [5, -5] },
        { name: 't', values: [1, 2] },
      ],
    });
    expect(geometry.bars[0]).toHaveLength(2);
    expect(geometry.bars[1][0].x).toBeGreaterThan(geometry.bars[0][0].x);
    expect(geometry.bars[0][1].y).toBeCloseTo(geometry.zeroY);
  });
});

describe('diffView', () => {
  it('counts added and removed lines from two texts and from a patch alike', () => {
    const fromTexts = diffView({ before: 'a\nb\nc\n', after: 'a\nB\nc\nd\n' });
    expect([fromTexts.added, fromTexts.removed]).toEqual([2, 1]);
    expect(fromTexts.lines.filter((line) => line.kind === 'remove').map((line) => line.text)).toEqual(['b']);
    const fromPatch = diffView({ patch: '--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n' });
    expect([fromPatch.added, fromPatch.removed]).toEqual([1, 1]);
    expect(fromPatch.lines.find((line) => line.kind === 'add')).toEqual({ kind: 'add', text: 'B', newLine: 2 });
  });
});

describe('sortedTableRows', () => {
  const table = {
    columns: [{ label: 'Name' }, { label: 'Speed', type: 'number' as const }],
    rows: [
      ['b', 10],
      ['a', 2],
      ['c', null],
    ],
  };
  it('sorts numbers as numbers, empty cells last, and cycles ascending, descending, original', () => {
    const ascending = nextTableSort(undefined, 1);
    expect(sortedTableRows(table, ascending).map((row) => row.index)).toEqual([1, 0, 2]);
    const descending = nextTableSort(ascending, 1);
    expect(sortedTableRows(table, descending).map((row) => row.index)).toEqual([0, 1, 2]);
    expect(nextTableSort(descending, 1)).toBeUndefined();
  });
});
