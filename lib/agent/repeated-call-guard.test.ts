import { describe, expect, it } from 'vitest';
import { callKey, repeatsPreviousStep } from './repeated-call-guard';

describe('repeated call guard', () => {
  it('treats key order as irrelevant', () => {
    expect(callKey('setParameter', { param: 'speed', value: 1 })).toBe(
      callKey('setParameter', { value: 1, param: 'speed' }),
    );
  });

  it('flags a step that repeats the previous step call for call', () => {
    const step = [callKey('getParameters', {})];
    expect(repeatsPreviousStep(step, [callKey('getParameters', {})])).toBe(true);
    expect(repeatsPreviousStep(step, [callKey('setParameter', { param: 'speed', value: 1 })])).toBe(false);
    expect(repeatsPreviousStep([], [])).toBe(false);
  });
});
