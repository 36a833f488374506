import { describe, expect, it } from 'vitest';
import { decimalsOf, niceStep, parameterInput, rangeLabel, vectorLabels } from './parameter-inputs';

describe('parameterInput', () => {
  it('gives a bounded number a slider with its declared step', () => {
    expect(parameterInput({ type: 'number', unit: 'm/s', min: 0, max: 50, step: 0.5, value: 8 })).toEqual({
      kind: 'slider',
      min: 0,
      max: 50,
      step: 0.5,
      sliderStep: 0.5,
      integer: false,
    });
  });

  it('gives a bounded number without a step a round slider step and a free number field', () => {
    const input = parameterInput({ type: 'number', min: -1000, max: 10000, value: 0 });
    expect(input).toEqual({ kind: 'slider', min: -1000, max: 10000, sliderStep: 50, integer: false });
  });

  it('steps integers by one unless the manifest says otherwise', () => {
    expect(parameterInput({ type: 'integer', min: 1, max: 5, value: 3 })).toMatchObject({
      kind: 'slider',
      step: 1,
      sliderStep: 1,
      integer: true,
    });
    expect(parameterInput({ type: 'integer', min: 100, max: 900, step: 100, value: 400 })).toMatchObject({
      step: 100,
      sliderStep: 100,
    });
  });

  it('gives a number open on one side a number field only', () => {
    expect(parameterInput({ type: 'number', min: 0, value: 1 })).toEqual({ kind: 'number', min: 0, integer: false });
    expect(parameterInput({ type: 'integer', value: 1 })).toEqual({ kind: 'number', step: 1, integer: true });
  });

  it('maps the other types to toggles, selects, colour and text inputs', () => {
    expect(parameterInput({ type: 'boolean', value: false })).toEqual({ kind: 'toggle' });
    expect(parameterInput({ type: 'enum', options: ['auto', 'manual'], value: 'auto' })).toEqual({
      kind: 'select',
      options: ['auto', 'manual'],
    });
    expect(parameterInput({ type: 'color', value: '#5ec8ff' })).toEqual({ kind: 'color' });
    expect(parameterInput({ type: 'string', maxLength: 40, value: 'hello' })).toEqual({ kind: 'text', maxLength: 40 });
    expect(parameterInput({ type: 'string', value: '' })).toEqual({ kind: 'text' });
  });

  it('gives arrays one labelled number field per element with the shared bounds', () => {
    expect(
      parameterInput({
        type: 'array',
        length: 3,
        min: -100,
        max: 100,
        value: [0, 12, 12],
        description: 'Camera position [x, y, z]; the camera looks at the origin.',
      }),
    ).toEqual({
      kind: 'vector',
      labels: ['x', 'y', 'z'],
      min: -100,
      max: 100,
      integer: false,
    });
  });
});

describe('vectorLabels', () => {
  it('takes element names the description spells out', () => {
    expect(vectorLabels(2, 'The span of days [start, end] shown on the x axis.')).toEqual(['start', 'end']);
    expect(vectorLabels(3, 'Direction [x, y, z] pointing to the sun; [0, 1, 0] is overhead.')).toEqual(['x', 'y', 'z']);
  });

  it('ignores bracketed examples that are numbers or of another length', () => {
    expect(vectorLabels(3, 'Defaults to [0, 1, 0]; see [a, b].')).toEqual(['x', 'y', 'z']);
  });

  it('numbers elements when nothing names them', () => {
    expect(vectorLabels(2)).toEqual(['1', '2']);
    expect(vectorLabels(4)).toEqual(['x', 'y', 'z', 'w']);
    expect(vectorLabels(16, 'The 16 steps').slice(0, 3)).toEqual(['1', '2', '3']);
  });
});

describe('niceStep and decimalsOf', () => {
  it('rounds down to 1, 2 or 5 times a power of ten', () => {
    expect(niceStep(55)).toBe(50);
    expect(niceStep(0.0175)).toBe(0.01);
    expect(niceStep(0.3)).toBe(0.2);
    expect(niceStep(0)).toBe(1);
  });

  it('counts the decimals of a step', () => {
    expect(decimalsOf(0.5)).toBe(1);
    expect(decimalsOf(0.005)).toBe(3);
    expect(decimalsOf(100)).toBe(0);
    expect(decimalsOf(1e-7)).toBe(7);
  });
});

describe('rangeLabel', () => {
  it('shows the bounds of numbers and vectors', () => {
    expect(rangeLabel({ type: 'number', min: 0, max: 50, value: 8 })).toBe('0 – 50');
    expect(rangeLabel({ type: 'integer', min: 1, value: 8 })).toBe('≥ 1');
    expect(rangeLabel({ type: 'array', length: 2, max: 9, value: [1, 2] })).toBe('≤ 9');
    expect(rangeLabel({ type: 'number', value: 8 })).toBeUndefined();
    expect(rangeLabel({ type: 'boolean', value: true })).toBeUndefined();
  });
});
