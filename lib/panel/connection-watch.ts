export type ConnectionStatus = 'connected' | 'reconnecting' | 'failed';

export interface ConnectionWatchOptions {
  /** A wait shorter than this (the usual service-worker restart) is not worth a banner. */
  bannerDelayMs: number;
  /** How long the panel waits for the runtime before it says what failed and offers Retry. */
  failAfterMs: number;
  setTimeout(callback: () => void, delayMs: number): unknown;
  clearTimeout(handle: unknown): void;
  onChange(status: ConnectionStatus, failure?: string): void;
}

export const RECONNECT_BANNER_DELAY_MS = 800;
export const RECONNECT_FAIL_AFTER_MS = 10_000;

/**
 * Whether the panel hears from the runtime: waiting starts when the port is lost or a subscription is sent, and
 * ends with the next message. A wait past `failAfterMs` is a failure, told with the last reason known.
 */
export class ConnectionWatch {
  private banner: unknown;
  private deadline: unknown;
  private reason: string | undefined;
  private status: ConnectionStatus = 'connected';

  constructor(private readonly options: ConnectionWatchOptions) {}

  /** The runtime owes an answer (a lost port, a subscription sent); `reason` is what went wrong, if known. */
  waiting(reason?: string): void {
    if (reason) this.reason = reason;
    if (this.deadline !== undefined || this.status === 'failed') return;
    if (this.status === 'connected')
      this.banner = this.options.setTimeout(() => this.set('reconnecting'), this.options.bannerDelayMs);
    this.deadline = this.options.setTimeout(() => {
      this.deadline = undefined;
      this.options.clearTimeout(this.banner);
      this.set('failed');
    }, this.options.failAfterMs);
  }

  /** A message from the runtime arrived. */
  heard(): void {
    this.stopTimers();
    this.reason = undefined;
    if (this.status !== 'connected') this.set('connected');
  }

  /** The runtime answered but could not hand out the conversation: a failure now, with Retry, not a wait. */
  refused(reason: string): void {
    this.stopTimers();
    this.status = 'failed';
    this.options.onChange('failed', `The extension's background could not open this conversation: ${reason}`);
  }

  /** The user asked to try again: the wait starts over. */
  retrying(): void {
    this.stopTimers();
    this.status = 'reconnecting';
    this.options.onChange('reconnecting');
    this.waiting();
  }

  dispose(): void {
    this.stopTimers();
  }

  private stopTimers(): void {
    this.options.clearTimeout(this.banner);
    this.options.clearTimeout(this.deadline);
    this.banner = undefined;
    this.deadline = undefined;
  }

  private set(status: ConnectionStatus): void {
    this.status = status;
    if (status !== 'failed') {
      this.options.onChange(status);
      return;
    }
    const seconds = Math.round(this.options.failAfterMs / 1000);
    this.options.onChange(
      status,
      this.reason
        ? `The extension's background stopped answering: ${this.reason}`
        : `The extension's background did not answer within ${seconds} s.`,
    );
  }
}
