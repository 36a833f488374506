import { describe, expect, it } from 'vitest';
import { frameScheduler } from './frame-scheduler';

function fakeClock() {
  const frames: (() => void)[] = [];
  const timers: (() => void)[] = [];
  return {
    clock: {
      requestAnimationFrame: (callback: () => void) => void frames.push(callback),
      setTimeout: (callback: () => void) => void timers.push(callback),
    },
    runFrames: () => frames.splice(0).forEach((callback) => callback()),
    runTimers: () => timers.splice(0).forEach((callback) => callback()),
  };
}

describe('frameScheduler', () => {
  it('drops a fallback timer once a frame has run', () => {
    const { clock, runFrames, runTimers } = fakeClock();
    const scheduler = frameScheduler(clock);
    const calls: string[] = [];
    scheduler.requestFrame(() => calls.push('frame'));
    scheduler.setTimer(() => calls.push('timer'), 100);
    runFrames();
    runTimers();
    expect(calls).toEqual(['frame']);
  });

  it('fires the fallback when no frame comes (a hidden panel)', () => {
    const { clock, runTimers } = fakeClock();
    const scheduler = frameScheduler(clock);
    const calls: string[] = [];
    scheduler.requestFrame(() => calls.push('frame'));
    scheduler.setTimer(() => calls.push('timer'), 100);
    runTimers();
    expect(calls).toEqual(['timer']);
  });

  it('keeps a timer set after the last frame', () => {
    const { clock, runFrames, runTimers } = fakeClock();
    const scheduler = frameScheduler(clock);
    const calls: string[] = [];
    scheduler.requestFrame(() => calls.push('frame 1'));
    runFrames();
    scheduler.setTimer(() => calls.push('timer'), 100);
    runTimers();
    expect(calls).toEqual(['frame 1', 'timer']);
  });
});
