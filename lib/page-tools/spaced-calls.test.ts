import { describe, expect, it } from 'vitest';
import { SpacedCalls } from './spaced-calls';

describe('SpacedCalls', () => {
  it('starts calls one at a time, spaced, and keeps going after a failure', async () => {
    let now = 0;
    const starts: number[] = [];
    const calls = new SpacedCalls(550, { now: () => now, sleep: async (ms) => void (now += ms) });
    const results = await Promise.allSettled([
      calls.run(async () => starts.push(now)),
      calls.run(async () => {
        starts.push(now);
        throw new Error('rate limited');
      }),
      calls.run(async () => starts.push(now)),
    ]);
    expect(starts).toEqual([0, 550, 1100]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });
});
