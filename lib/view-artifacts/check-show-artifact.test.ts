import { describe, expect, it } from 'vitest';
import { checkShowArtifact } from './check-show-artifact';
import { VIEW_ARTIFACT_LIMITS } from '../protocol/view-artifact-data';

function pathsOf(input: unknown): string[] {
  const checked = checkShowArtifact(input);
  return checked.ok ? [] : checked.problems.map((problem) => problem.path);
}

const table = {
  columns: [{ label: 'Target' }, { label: 'Speed', type: 'number', unit: 'm/s' }],
  rows: [
    ['particles', 12],
    ['scene', 3.5],
  ],
};

describe('checkShowArtifact', () => {
  it('accepts one valid call of every kind', () => {
    const valid = [
      { kind: 'table', title: 'Speeds', data: table },
      {
        kind: 'chart',
        title: 'Frames',
        data: { type: 'line', x: { values: [1, 2, 3] }, series: [{ name: 'fps', values: [60, 58, null] }] },
      },
      { kind: 'diff', title: 'Edit', data: { before: 'a\nb\n', after: 'a\nc\n', filename: 'x.txt' } },
      { kind: 'diff', title: 'Patch', data: { patch: '--- a\n+++ b\n@@ -1 +1 @@\n-a\n+b\n' } },
      {
        kind: 'plan',
        title: 'Plan',
        data: {
          steps: [
            { title: 'Open', state: 'done' },
            { title: 'Tune', state: 'pending' },
          ],
        },
      },
      { kind: 'code', title: 'Code', data: { language: 'ts', text: 'const a = 1;' } },
    ];
    for (const input of valid) expect(checkShowArtifact(input), input.kind).toMatchObject({ ok: true });
  });

  it('table: a row with the wrong number of cells, an object cell and a missing label, each with its path', () => {
    expect(
      pathsOf({
        kind: 'table',
        title: 'Speeds',
        data: { columns: [{ label: 'A' }, {}], rows: [['x', 1], ['y'], ['z', { html: '<b>' }]] },
      }),
    ).toEqual(expect.arrayContaining(['/data/columns/1/label', '/data/rows/1', '/data/rows/2/1']));
  });

  it('table: bounded rows, columns and cells', () => {
    const rows = Array.from({ length: VIEW_ARTIFACT_LIMITS.table.rows + 1 }, () => ['x']);
    expect(pathsOf({ kind: 'table', title: 'Big', data: { columns: [{ label: 'A' }], rows } })).toEqual(['/data/rows']);
    const long = 'x'.repeat(VIEW_ARTIFACT_LIMITS.table.cell + 1);
    expect(pathsOf({ kind: 'table', title: 'Long', data: { columns: [{ label: 'A' }], rows: [[long]] } })).toEqual([
      '/data/rows/0/0',
    ]);
  });

  it('chart: a series of another length than x, a string value, an unknown type', () => {
    expect(
      pathsOf({
        kind: 'chart',
        title: 'C',
        data: {
          type: 'pie',
          x: { values: [1, 2] },
          series: [
            { name: 'a', values: [1] },
            { name: 'b', values: [1, 'x'] },
          ],
        },
      }),
    ).toEqual(expect.arrayContaining(['/data/type', '/data/series/1/values/1']));
    expect(
      pathsOf({
        kind: 'chart',
        title: 'C',
        data: { type: 'bar', x: { values: [1, 2] }, series: [{ name: 'a', values: [1] }] },
      }),
    ).toEqual(['/data/series/0/values']);
  });

  it('diff: neither texts nor a patch', () => {
    expect(pathsOf({ kind: 'diff', title: 'D', data: { before: 'a' } })).toEqual(['/data/after']);
  });

  it('plan: an unknown state', () => {
    expect(pathsOf({ kind: 'plan', title: 'P', data: { steps: [{ title: 'a', state: 'maybe' }] } })).toEqual([
      '/data/steps/0/state',
    ]);
  });

  it('code: a language that is not a plain name, and HTML fields are unknown keys', () => {
    expect(pathsOf({ kind: 'code', title: 'C', data: { language: '<script>', text: '', html: '<b>' } })).toEqual(
      expect.arrayContaining(['/data/language', '/data']),
    );
  });

  it('reports the call and its data problems together, and the whole data size is bounded', () => {
    expect(pathsOf({ kind: 'plan', title: '', data: { steps: [] } })).toEqual(['/title', '/data/steps']);
    const text = 'x'.repeat(VIEW_ARTIFACT_LIMITS.code.text);
    const big = {
      kind: 'diff',
      title: 'Big',
      data: { before: text.slice(0, 60_000), after: text.slice(0, 60_000) + '' },
    };
    expect(checkShowArtifact(big).ok).toBe(true);
    const rows = Array.from({ length: 500 }, () => Array.from({ length: 30 }, () => 'y'.repeat(20)));
    const columns = Array.from({ length: 30 }, (_, index) => ({ label: `c${index}` }));
    expect(pathsOf({ kind: 'table', title: 'Huge', data: { columns, rows } })).toEqual(['/data']);
  });

  it('an update names both its artifact and its base version', () => {
    expect(pathsOf({ kind: 'table', title: 'T', data: table, artifactId: 'a-1' })).toEqual(['/baseVersion']);
    expect(pathsOf({ kind: 'table', title: 'T', data: table, baseVersion: 1 })).toEqual(['/artifactId']);
  });
});
