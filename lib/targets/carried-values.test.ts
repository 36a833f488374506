import { describe, expect, it } from 'vitest';
import { targetManifestSchema, type TargetManifest } from '../protocol/target-manifest';
import { carriedValues } from './carried-values';

function manifest(params: Record<string, unknown>): TargetManifest {
  return targetManifestSchema.parse({
    id: 'sketch',
    title: 'Sketch',
    description: 'A sketch.',
    entry: 'index.html',
    params: { view: params },
  });
}

const before = manifest({
  mode: { type: 'string', maxLength: 20, value: 'fast' },
  radius: { type: 'number', min: 0, max: 200, unit: 'px', value: 40 },
  label: { type: 'string', maxLength: 20, value: '' },
  gone: { type: 'boolean', value: false },
});
const after = manifest({
  mode: { type: 'enum', options: ['fast', 'slow'], value: 'slow' },
  radius: { type: 'number', min: 0, max: 100, unit: 'px', value: 40 },
  label: { type: 'string', maxLength: 20, value: '' },
});

describe('carriedValues', () => {
  it('keeps a value only for a parameter of the same name and type, still valid', () => {
    const saved = { mode: 'fast', radius: 90, label: 'hello', gone: true };
    expect(carriedValues(saved, after, before)).toEqual({ radius: 90, label: 'hello' });
  });

  it('drops a value the new range refuses or clamps it as a change would', () => {
    expect(carriedValues({ radius: 150 }, after, before)).toEqual({ radius: 100 });
    expect(carriedValues({ label: 42 }, after, before)).toEqual({});
  });

  it('without the previous manifest checks only the name and the value (an installed target)', () => {
    expect(carriedValues({ mode: 'fast', gone: true }, after)).toEqual({ mode: 'fast' });
  });
});
