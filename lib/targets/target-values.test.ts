import { describe, expect, it, vi } from 'vitest';
import type { JsonObject } from '../protocol/json-value';
import { TargetValues, targetValuesKey } from './target-values';

function setup(stored: Record<string, unknown> = {}) {
  const values = new Map(Object.entries(stored));
  const write = vi.fn(async (items: Record<string, JsonObject>) => {
    for (const [key, value] of Object.entries(items)) values.set(key, value);
  });
  const targetValues = new TargetValues({
    read: async (key) => values.get(key),
    write,
    delayMs: 60_000,
    onError: () => undefined,
  });
  return { targetValues, write, values };
}

describe('TargetValues', () => {
  it('answers with the stored values of a target, and none for broken ones', async () => {
    const { targetValues } = setup({ [targetValuesKey('particles')]: { speed: 3 }, [targetValuesKey('synth')]: 7 });
    expect(await targetValues.saved('particles')).toEqual({ speed: 3 });
    expect(await targetValues.saved('synth')).toBeUndefined();
    expect(await targetValues.saved('chart')).toBeUndefined();
  });

  it('answers with values not written yet, and writes a burst of them once on flush', async () => {
    const { targetValues, write, values } = setup({ [targetValuesKey('particles')]: { speed: 3 } });
    targetValues.remember('particles', { speed: 4 });
    targetValues.remember('particles', { speed: 5 });
    expect(await targetValues.saved('particles')).toEqual({ speed: 5 });
    expect(write).not.toHaveBeenCalled();
    await targetValues.flush();
    expect(write).toHaveBeenCalledTimes(1);
    expect(values.get(targetValuesKey('particles'))).toEqual({ speed: 5 });
  });

  it('keeps the saved values when a target that was just opened reports none', async () => {
    const { targetValues, write } = setup({ [targetValuesKey('particles')]: { speed: 3 } });
    targetValues.remember('particles', {});
    await targetValues.flush();
    expect(write).not.toHaveBeenCalled();
    expect(await targetValues.saved('particles')).toEqual({ speed: 3 });
  });
});
