import type { BatcherScheduler } from '../state/event-batcher';

export interface FrameClock {
  requestAnimationFrame(callback: () => void): void;
  setTimeout(callback: () => void, delayMs: number): void;
}

/**
 * The batcher's scheduler for a document: a fallback timer fires only if no animation frame has run since it
 * was set (a hidden panel gets no frames). Without the check, timers left from earlier frames would flush
 * again in the middle of frames and render the panel two or three times per frame.
 */
export function frameScheduler(clock: FrameClock): BatcherScheduler {
  let frames = 0;
  return {
    requestFrame: (callback) =>
      clock.requestAnimationFrame(() => {
        frames += 1;
        callback();
      }),
    setTimer: (callback, delayMs) => {
      const framesAtStart = frames;
      clock.setTimeout(() => {
        if (frames === framesAtStart) callback();
      }, delayMs);
    },
  };
}
