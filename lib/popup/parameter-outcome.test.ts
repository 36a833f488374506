import { describe, expect, it } from 'vitest';
import { targetManifestSchema } from '../protocol/target-manifest';
import { describeSetOutput, formatParameterValue, toolFailure } from './parameter-outcome';

const manifest = targetManifestSchema.parse({
  id: 'particles',
  title: 'Particle field',
  description: 'Particles.',
  entry: 'index.html',
  params: {
    settings: {
      speed: { type: 'number', unit: 'm/s', min: 0, max: 50, step: 0.5, value: 8 },
      mode: { type: 'enum', options: ['auto', 'manual'], value: 'auto' },
      color: { type: 'color', value: '#5ec8ff' },
      label: { type: 'string', value: 'hello' },
    },
    view: {
      show_vectors: { type: 'boolean', value: false },
      position: { type: 'array', length: 3, unit: 'world units', min: -100, max: 100, value: [0, 12, 12] },
    },
  },
});
const speed = manifest.params.settings.speed;

describe('describeSetOutput', () => {
  it('shows the applied value with its unit', () => {
    expect(describeSetOutput('speed', speed, { ok: true, targetId: 'particles', applied: { speed: 12 } })).toEqual({
      applied: 12,
      result: { tone: 'ok', message: 'Applied: 12 m/s.' },
    });
  });

  it('says when a value was clamped, with both values', () => {
    const outcome = describeSetOutput('speed', speed, {
      ok: true,
      applied: { speed: 50 },
      clamped: [{ param: 'speed', requested: 80, applied: 50 }],
    });
    expect(outcome).toEqual({
      applied: 50,
      result: { tone: 'warning', message: 'Out of range: asked 80 m/s, applied 50 m/s.' },
    });
  });

  it('passes the tool error through', () => {
    const error =
      'Parameter "speed" expects a finite number in m/s, got string "x" (range [0, 50] m/s). Nothing was changed.';
    expect(describeSetOutput('speed', speed, { ok: false, targetId: 'particles', error })).toEqual({
      result: { tone: 'error', message: error },
    });
  });

  it('warns when the target does not report the parameter back, and rejects a malformed answer', () => {
    expect(describeSetOutput('speed', speed, { ok: true, applied: { speed: null } }).result.tone).toBe('warning');
    expect(describeSetOutput('speed', speed, { applied: 1 }).result.tone).toBe('error');
  });

  it('finds the error of any tool answer', () => {
    expect(toolFailure({ ok: true, targetId: 'particles' })).toBeUndefined();
    expect(toolFailure({ ok: false, error: 'Target "partcles" not found.' })).toBe('Target "partcles" not found.');
    expect(toolFailure(undefined)).toBe('The runtime answered with something unexpected.');
  });

  it('formats every kind of value', () => {
    expect(formatParameterValue([0, 12, 12], manifest.params.view.position)).toBe('[0, 12, 12] world units');
    expect(formatParameterValue(true, manifest.params.view.show_vectors)).toBe('on');
    expect(formatParameterValue('hi', manifest.params.settings.label)).toBe('"hi"');
    expect(formatParameterValue('manual', manifest.params.settings.mode)).toBe('manual');
  });
});
