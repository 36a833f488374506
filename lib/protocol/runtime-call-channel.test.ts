import { describe, expect, it } from 'vitest';
import type { MessagePortLike } from './reconnecting-port';
import { CALL_PORT_CLOSED, RuntimeCallChannel } from './runtime-call-channel';

class FakePort implements MessagePortLike {
  readonly posted: { type: string; callId: string; request: unknown }[] = [];
  private readonly messageListeners: ((message: unknown) => void)[] = [];
  private readonly disconnectListeners: (() => void)[] = [];
  readonly onMessage = { addListener: (listener: (message: unknown) => void) => this.messageListeners.push(listener) };
  readonly onDisconnect = { addListener: (listener: () => void) => this.disconnectListeners.push(listener) };

  postMessage(message: unknown): void {
    this.posted.push(message as FakePort['posted'][number]);
  }

  disconnect(): void {}

  receive(message: unknown): void {
    for (const listener of this.messageListeners) listener(message);
  }

  lose(): void {
    for (const listener of this.disconnectListeners) listener();
  }
}

function channel() {
  const ports: FakePort[] = [];
  let count = 0;
  const calls = new RuntimeCallChannel({
    connect: () => {
      const port = new FakePort();
      ports.push(port);
      return port;
    },
    newCallId: () => `call-${++count}`,
  });
  return { calls, ports };
}

describe('RuntimeCallChannel', () => {
  it('opens one port on the first call and answers each call by its id, in any order', async () => {
    const { calls, ports } = channel();
    const first = calls.call({ type: 'sessions/list' });
    const second = calls.call({ type: 'targets/list' });
    expect(ports).toHaveLength(1);
    expect(ports[0].posted).toEqual([
      { type: 'call/request', callId: 'call-1', request: { type: 'sessions/list' } },
      { type: 'call/request', callId: 'call-2', request: { type: 'targets/list' } },
    ]);
    ports[0].receive({ type: 'call/response', callId: 'call-2', response: { ok: true, result: 'second' } });
    ports[0].receive({ type: 'call/response', callId: 'call-1', response: { ok: false, error: 'no' } });
    await expect(second).resolves.toEqual({ ok: true, result: 'second' });
    await expect(first).resolves.toEqual({ ok: false, error: 'no' });
  });

  it('fails the calls pending on a lost port with the retryable text, and opens a new port for the next call', async () => {
    const { calls, ports } = channel();
    const pending = calls.call({ type: 'sessions/list' });
    ports[0].lose();
    await expect(pending).rejects.toThrow(CALL_PORT_CLOSED);
    const next = calls.call({ type: 'sessions/list' });
    expect(ports).toHaveLength(2);
    ports[1].receive({ type: 'call/response', callId: 'call-2', response: { ok: true, result: [] } });
    await expect(next).resolves.toEqual({ ok: true, result: [] });
  });

  it('rejects a call whose reply is malformed, and ignores replies to no pending call', async () => {
    const { calls, ports } = channel();
    const pending = calls.call({ type: 'sessions/list' });
    ports[0].receive({ type: 'call/response', callId: 'call-9', response: { ok: true, result: 1 } });
    ports[0].receive('not even an object');
    ports[0].receive({ type: 'call/response', callId: 'call-1', response: { ok: 'maybe' } });
    await expect(pending).rejects.toThrow('invalid response');
  });

  it('rejects a call when the port cannot be opened, and tries again on the next call', async () => {
    let attempts = 0;
    const calls = new RuntimeCallChannel({
      connect: () => {
        attempts += 1;
        throw new Error('Extension context invalidated.');
      },
      newCallId: () => 'call',
    });
    await expect(calls.call({})).rejects.toThrow('Extension context invalidated.');
    await expect(calls.call({})).rejects.toThrow('Extension context invalidated.');
    expect(attempts).toBe(2);
  });
});
