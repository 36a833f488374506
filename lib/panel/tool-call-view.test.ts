import { describe, expect, it } from 'vitest';
import {
  formatDuration,
  isToolCallFinished,
  toolArgumentsSummary,
  toolArgumentsText,
  toolCallAdjustments,
  toolCallError,
  toolCallTarget,
  toolCallTargetErrors,
} from './tool-call-view';

describe('tool call view', () => {
  it('finds the target in the result, else in the arguments', () => {
    expect(toolCallTarget({ input: { targetId: 'slow-counter' }, output: undefined })).toBe('slow-counter');
    expect(toolCallTarget({ input: {}, output: { ok: true, targetId: 'particles' } })).toBe('particles');
    expect(toolCallTarget({ input: {}, output: { ok: true } })).toBeUndefined();
    expect(toolCallTarget({ targetId: 'chart', input: {}, output: undefined })).toBe('chart');
  });

  it('shows the raw preview while arguments stream, pretty JSON once complete', () => {
    expect(toolArgumentsText({ input: undefined, argumentsPreview: '{"param":"spe' })).toBe('{"param":"spe');
    expect(toolArgumentsText({ input: { a: 1 }, argumentsPreview: '' })).toBe('{\n  "a": 1\n}');
  });

  it('summarises arguments on one line', () => {
    expect(toolArgumentsSummary({ input: { param: 'speed', value: 12 }, argumentsPreview: '' })).toBe(
      'param: "speed", value: 12',
    );
    expect(toolArgumentsSummary({ input: {}, argumentsPreview: '' })).toBe('');
    expect(toolArgumentsSummary({ input: { text: 'x'.repeat(200) }, argumentsPreview: '' }, 20)).toHaveLength(20);
  });

  it('names the error of a failed call', () => {
    expect(
      toolCallError({ status: 'failed', error: undefined, output: { ok: false, error: 'Parameter "spd" not found' } }),
    ).toBe('Parameter "spd" not found');
    expect(toolCallError({ status: 'unknown', error: 'Outcome unknown', output: undefined })).toBe('Outcome unknown');
    expect(toolCallError({ status: 'done', error: undefined, output: { ok: true } })).toBeUndefined();
  });

  it('formats durations', () => {
    expect(formatDuration(3.4)).toBe('3 ms');
    expect(formatDuration(1520)).toBe('1.5 s');
    expect(formatDuration(42_000)).toBe('42 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
    expect(formatDuration(undefined)).toBeUndefined();
  });

  it('knows which statuses are final', () => {
    expect(
      ['streaming', 'requested', 'running', 'done', 'failed', 'unknown', 'denied'].map((status) =>
        isToolCallFinished(status as never),
      ),
    ).toEqual([false, false, false, true, true, true, true]);
  });

  it('says which values were clamped into range, and nothing when every value was taken as asked', () => {
    const output = {
      ok: true,
      applied: { tempo: 240, volume: -6 },
      clamped: [
        { param: 'tempo', requested: 999, applied: 240 },
        { param: 'camera', requested: [0, 99, 0], applied: [0, 50, 0] },
      ],
    };
    expect(toolCallAdjustments(output)).toBe('Clamped to range: tempo 999 → 240, camera [0,99,0] → [0,50,0]');
    expect(toolCallAdjustments({ ok: true, applied: { tempo: 120 } })).toBeUndefined();
    expect(toolCallAdjustments({ ok: true, clamped: [null, 'x', { requested: 1 }] })).toBeUndefined();
    expect(toolCallAdjustments(undefined)).toBeUndefined();
  });

  it('shows what a target reported on its own, and nothing when it reported nothing usable', () => {
    expect(toolCallTargetErrors({ ok: true, targetErrors: ['TypeError: x is undefined', 'late'] })).toBe(
      'The target reported: TypeError: x is undefined; late',
    );
    expect(toolCallTargetErrors({ ok: true, targetErrors: [1, ''] })).toBeUndefined();
    expect(toolCallTargetErrors({ ok: true })).toBeUndefined();
    expect(toolCallTargetErrors(undefined)).toBeUndefined();
  });
});
