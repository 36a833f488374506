import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectionWatch, type ConnectionStatus } from './connection-watch';

function watch() {
  const changes: { status: ConnectionStatus; failure?: string }[] = [];
  const connection = new ConnectionWatch({
    bannerDelayMs: 800,
    failAfterMs: 10_000,
    setTimeout: (callback, delay) => setTimeout(callback, delay),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    onChange: (status, failure) => changes.push(failure ? { status, failure } : { status }),
  });
  return { connection, changes };
}

describe('ConnectionWatch', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('shows nothing for a short restart', () => {
    const { connection, changes } = watch();
    connection.waiting();
    vi.advanceTimersByTime(500);
    connection.heard();
    vi.advanceTimersByTime(20_000);
    expect(changes).toEqual([]);
  });

  it('shows reconnecting after the banner delay, then after 10 s says what failed', () => {
    const { connection, changes } = watch();
    connection.waiting('Could not establish connection. Receiving end does not exist.');
    vi.advanceTimersByTime(800);
    expect(changes).toEqual([{ status: 'reconnecting' }]);
    connection.waiting();
    vi.advanceTimersByTime(9_199);
    expect(changes).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(changes.at(-1)).toEqual({
      status: 'failed',
      failure:
        "The extension's background stopped answering: Could not establish connection. Receiving end does not exist.",
    });
  });

  it('says it got no answer when no reason is known, and a retry starts the wait over', () => {
    const { connection, changes } = watch();
    connection.waiting();
    vi.advanceTimersByTime(10_000);
    expect(changes.at(-1)).toEqual({
      status: 'failed',
      failure: "The extension's background did not answer within 10 s.",
    });
    connection.retrying();
    expect(changes.at(-1)).toEqual({ status: 'reconnecting' });
    vi.advanceTimersByTime(9_999);
    connection.heard();
    expect(changes.at(-1)).toEqual({ status: 'connected' });
    vi.advanceTimersByTime(20_000);
    expect(changes.at(-1)).toEqual({ status: 'connected' });
  });

  it('fails at once when the runtime refuses the conversation, and a retry starts over', () => {
    const { connection, changes } = watch();
    connection.waiting();
    connection.heard();
    connection.refused('The quota has been exceeded.');
    expect(changes).toEqual([
      {
        status: 'failed',
        failure: "The extension's background could not open this conversation: The quota has been exceeded.",
      },
    ]);
    vi.advanceTimersByTime(20_000);
    expect(changes).toHaveLength(1);
    connection.retrying();
    connection.heard();
    expect(changes.at(-1)).toEqual({ status: 'connected' });
  });
});
