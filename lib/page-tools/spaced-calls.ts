/**
 * Runs calls one at a time, at least `spacingMs` apart: `tabs.captureVisibleTab` is limited by the browser
 * (Chrome: two calls a second) and fails outright when called faster.
 */
export class SpacedCalls {
  private tail: Promise<unknown> = Promise.resolve();
  private lastStart = -Infinity;

  constructor(
    private readonly spacingMs: number,
    private readonly clock: { now(): number; sleep(ms: number): Promise<void> },
  ) {}

  run<T>(call: () => Promise<T>): Promise<T> {
    const result = this.tail.then(async () => {
      const wait = this.lastStart + this.spacingMs - this.clock.now();
      if (wait > 0) await this.clock.sleep(wait);
      this.lastStart = this.clock.now();
      return call();
    });
    this.tail = result.catch(() => undefined);
    return result;
  }
}
