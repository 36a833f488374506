import { describe, expect, it } from 'vitest';
import { targetManifestSchema } from '../protocol/target-manifest';
import { formValues, valuesFromState } from './form-values';

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

describe('form values', () => {
  it('start from the defaults and take what the target reported', () => {
    expect(formValues(manifest, { speed: 20, position: [1, 2, 3] })).toEqual({
      speed: 20,
      mode: 'auto',
      color: '#5ec8ff',
      label: 'hello',
      show_vectors: false,
      position: [1, 2, 3],
    });
    expect(formValues(manifest, null).speed).toBe(8);
  });

  it('leave out unknown names and values of the wrong type, unwrap { value } and keep what the target really has', () => {
    expect(
      valuesFromState(manifest, {
        speed: 'fast',
        mode: 'sideways',
        fps: 60,
        position: [1, 2],
        color: { value: '#ABCDEF' },
        show_vectors: true,
      }),
    ).toEqual({ color: '#abcdef', show_vectors: true });
    expect(valuesFromState(manifest, { speed: 70 })).toEqual({ speed: 70 });
  });
});
