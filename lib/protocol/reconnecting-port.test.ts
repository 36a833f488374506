import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { openReconnectingPort, RECONNECT_DELAY_MS, type MessagePortLike } from './reconnecting-port';

class FakePort implements MessagePortLike {
  readonly posted: unknown[] = [];
  disconnected = false;
  private readonly messageListeners: ((message: unknown) => void)[] = [];
  private readonly disconnectListeners: (() => void)[] = [];
  readonly onMessage = { addListener: (listener: (message: unknown) => void) => this.messageListeners.push(listener) };
  readonly onDisconnect = { addListener: (listener: () => void) => this.disconnectListeners.push(listener) };

  constructor(readonly name: string) {}

  postMessage(message: unknown): void {
    this.posted.push(message);
  }

  /** Our own side disconnecting: as with a runtime port, its own onDisconnect does not fire. */
  disconnect(): void {
    this.disconnected = true;
  }

  receive(message: unknown): void {
    for (const listener of this.messageListeners) listener(message);
  }

  /** The other side went away (the service worker stopped). */
  lose(): void {
    for (const listener of this.disconnectListeners) listener();
  }
}

const pingSchema = z.object({ type: z.literal('ping'), count: z.number() });
type Ping = z.infer<typeof pingSchema>;

function open(hooks: { onReconnect?(): void; onDisconnect?(): void } = {}) {
  const ports: FakePort[] = [];
  const received: Ping[] = [];
  const port = openReconnectingPort<{ type: 'hello' }, Ping>({
    name: 'events',
    connect: (name) => {
      const created = new FakePort(name);
      ports.push(created);
      return created;
    },
    schema: pingSchema,
    onMessage: (message) => received.push(message),
    ...hooks,
  });
  return { port, ports, received };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('openReconnectingPort', () => {
  it('connects by name and posts on the open port', () => {
    const { port, ports } = open();
    port.post({ type: 'hello' });
    expect(ports.map((created) => created.name)).toEqual(['events']);
    expect(ports[0].posted).toEqual([{ type: 'hello' }]);
  });

  it('hands on messages that match the schema and drops the rest', () => {
    const { ports, received } = open();
    ports[0].receive({ type: 'ping', count: 1 });
    ports[0].receive({ type: 'ping', count: 'two' });
    ports[0].receive('not even an object');
    ports[0].receive({ type: 'pong', count: 3 });
    ports[0].receive({ type: 'ping', count: 4 });
    expect(received).toEqual([
      { type: 'ping', count: 1 },
      { type: 'ping', count: 4 },
    ]);
  });

  it('reports a lost port at once and reconnects after the delay, then calls onReconnect', () => {
    const events: string[] = [];
    const { ports, received } = open({
      onDisconnect: () => events.push(`lost, ${ports.length} port(s)`),
      onReconnect: () => events.push(`reconnected, ${ports.length} port(s)`),
    });
    ports[0].lose();
    expect(events).toEqual(['lost, 1 port(s)']);
    vi.advanceTimersByTime(RECONNECT_DELAY_MS - 1);
    expect(ports).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(ports.map((created) => created.name)).toEqual(['events', 'events']);
    expect(events).toEqual(['lost, 1 port(s)', 'reconnected, 2 port(s)']);
    ports[1].receive({ type: 'ping', count: 5 });
    expect(received).toEqual([{ type: 'ping', count: 5 }]);
  });

  it('drops what is posted while no port is open, and posts on the new port after a reconnect', () => {
    const { port, ports } = open();
    ports[0].lose();
    port.post({ type: 'hello' });
    vi.advanceTimersByTime(RECONNECT_DELAY_MS);
    port.post({ type: 'hello' });
    expect(ports[0].posted).toEqual([]);
    expect(ports[1].posted).toEqual([{ type: 'hello' }]);
  });

  it('does not call onReconnect for the first connection', () => {
    const onReconnect = vi.fn();
    open({ onReconnect });
    vi.advanceTimersByTime(RECONNECT_DELAY_MS * 10);
    expect(onReconnect).not.toHaveBeenCalled();
  });

  it('keeps reconnecting after each loss', () => {
    const onReconnect = vi.fn();
    const { ports } = open({ onReconnect });
    for (let loss = 0; loss < 3; loss++) {
      ports.at(-1)!.lose();
      vi.advanceTimersByTime(RECONNECT_DELAY_MS);
    }
    expect(ports).toHaveLength(4);
    expect(onReconnect).toHaveBeenCalledTimes(3);
  });

  it('close() disconnects, stops reconnecting and delivers nothing more', () => {
    const onDisconnect = vi.fn();
    const { port, ports, received } = open({ onDisconnect });
    port.close();
    expect(ports[0].disconnected).toBe(true);
    ports[0].receive({ type: 'ping', count: 1 });
    ports[0].lose();
    vi.advanceTimersByTime(RECONNECT_DELAY_MS * 10);
    expect(ports).toHaveLength(1);
    expect(received).toEqual([]);
    expect(onDisconnect).not.toHaveBeenCalled();
  });

  it('close() while waiting to reconnect cancels the reconnect', () => {
    const onReconnect = vi.fn();
    const { port, ports } = open({ onReconnect });
    ports[0].lose();
    port.close();
    vi.advanceTimersByTime(RECONNECT_DELAY_MS * 10);
    expect(ports).toHaveLength(1);
    expect(onReconnect).not.toHaveBeenCalled();
  });

  it('close() from inside a message handler stops on that port', () => {
    const ports: FakePort[] = [];
    const port = openReconnectingPort<never, Ping>({
      name: 'stage',
      connect: (name) => {
        const created = new FakePort(name);
        ports.push(created);
        return created;
      },
      schema: pingSchema,
      onMessage: () => port.close(),
    });
    ports[0].receive({ type: 'ping', count: 1 });
    ports[0].lose();
    vi.advanceTimersByTime(RECONNECT_DELAY_MS * 10);
    expect(ports).toHaveLength(1);
    expect(ports[0].disconnected).toBe(true);
  });
});
