import type { Runtime } from 'webextension-polyfill';

/** A runtime port as the links of `lib/runtime/` take it. */
export interface PortLink {
  postMessage(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  onDisconnect(listener: () => void): void;
}

export function portLink(port: Runtime.Port): PortLink {
  return {
    postMessage: (message: unknown) => port.postMessage(message),
    onMessage: (listener: (message: unknown) => void) => port.onMessage.addListener(listener),
    onDisconnect: (listener: () => void) => port.onDisconnect.addListener(() => listener()),
  };
}
