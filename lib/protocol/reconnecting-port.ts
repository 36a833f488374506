import type { ZodType } from 'zod';

/** The part of a runtime port (an extension runtime `Port`) the helper uses, so a test can hand it a fake. */
export interface MessagePortLike {
  postMessage(message: unknown): void;
  disconnect(): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: () => void): void };
}

export interface ReconnectingPortOptions<Incoming> {
  name: string;
  connect(name: string): MessagePortLike;
  /** Every received message is checked against it; one that does not match is dropped. */
  schema: ZodType<Incoming>;
  onMessage(message: Incoming): void;
  /** The port was lost (the service worker went away); a new one follows unless closed. */
  onDisconnect?(): void;
  /** A new port replaced the lost one: what was said on the old one must be said again. */
  onReconnect?(): void;
}

export interface ReconnectingPort<Outgoing> {
  /** Dropped while no port is open, between a loss and the reconnect. */
  post(message: Outgoing): void;
  /** Disconnects and stops reconnecting. */
  close(): void;
}

export const RECONNECT_DELAY_MS = 100;

/** A named runtime port that is reopened whenever it is lost, until closed. */
export function openReconnectingPort<Outgoing, Incoming>(
  options: ReconnectingPortOptions<Incoming>,
): ReconnectingPort<Outgoing> {
  let port: MessagePortLike | undefined;
  let closed = false;
  const open = () => {
    const current = options.connect(options.name);
    port = current;
    current.onMessage.addListener((raw) => {
      const parsed = options.schema.safeParse(raw);
      if (parsed.success && !closed) options.onMessage(parsed.data);
    });
    current.onDisconnect.addListener(() => {
      if (port === current) port = undefined;
      if (closed) return;
      options.onDisconnect?.();
      setTimeout(() => {
        if (closed) return;
        open();
        options.onReconnect?.();
      }, RECONNECT_DELAY_MS);
    });
  };
  open();
  return {
    post: (message) => port?.postMessage(message),
    close: () => {
      closed = true;
      port?.disconnect();
      port = undefined;
    },
  };
}
