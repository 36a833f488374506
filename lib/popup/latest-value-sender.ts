import { errorText } from '../protocol/error-text';
export interface SenderClock {
  now(): number;
  setTimer(callback: () => void, delayMs: number): unknown;
  clearTimer(handle: unknown): void;
}

export type SendOutcome<TResult> = { ok: true; result: TResult } | { ok: false; error: string };

export interface LatestValueSenderOptions<TValue, TResult> {
  send(value: TValue): Promise<TResult>;
  /** Called once the last value pushed has been sent and answered, with nothing newer waiting. */
  onSettled(outcome: SendOutcome<TResult>, value: TValue): void;
  intervalMs: number;
  clock: SenderClock;
}

/**
 * Sends a stream of values (a slider being dragged) without flooding: at most one request in
 * flight and one per interval, values in between are replaced by newer ones, and the last value
 * pushed is always sent. Requests never overlap, so they cannot be applied out of order.
 */
export class LatestValueSender<TValue, TResult> {
  private waiting: { value: TValue } | undefined;
  private inFlight = false;
  private lastSentAt = Number.NEGATIVE_INFINITY;
  private timer: unknown;
  private sentCount = 0;

  constructor(private readonly options: LatestValueSenderOptions<TValue, TResult>) {}

  /** True while a value is waiting or being sent. */
  get busy(): boolean {
    return this.inFlight || this.waiting !== undefined;
  }

  /** How many requests were sent, for tests and diagnostics. */
  get sent(): number {
    return this.sentCount;
  }

  push(value: TValue): void {
    this.waiting = { value };
    this.schedule();
  }

  /** Drops a value that has not been sent yet (the form was replaced). */
  cancel(): void {
    this.waiting = undefined;
    if (this.timer !== undefined) this.options.clock.clearTimer(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.inFlight || this.timer !== undefined || !this.waiting) return;
    const wait = this.lastSentAt + this.options.intervalMs - this.options.clock.now();
    if (wait <= 0) {
      this.flush();
      return;
    }
    this.timer = this.options.clock.setTimer(() => {
      this.timer = undefined;
      this.schedule();
    }, wait);
  }

  private flush(): void {
    const { value } = this.waiting!;
    this.waiting = undefined;
    this.inFlight = true;
    this.lastSentAt = this.options.clock.now();
    this.sentCount++;
    const finish = (outcome: SendOutcome<TResult>) => {
      this.inFlight = false;
      if (this.waiting) this.schedule();
      else this.options.onSettled(outcome, value);
    };
    this.options.send(value).then(
      (result) => finish({ ok: true, result }),
      (error: unknown) => finish({ ok: false, error: errorText(error) }),
    );
  }
}
