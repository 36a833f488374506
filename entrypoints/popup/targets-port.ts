import browser from 'webextension-polyfill';
import { targetsPortMessageSchema, type TargetsPortMessage } from '@/lib/protocol/runtime-message';

/** The `targets` port, reopened whenever the service worker goes away; `onReconnect` lets the caller catch up. */
export function openTargetsPort(onMessage: (message: TargetsPortMessage) => void, onReconnect: () => void): () => void {
  let port: ReturnType<typeof browser.runtime.connect> | undefined;
  let closed = false;
  const connect = () => {
    port = browser.runtime.connect({ name: 'targets' });
    port.onMessage.addListener((raw: unknown) => {
      const parsed = targetsPortMessageSchema.safeParse(raw);
      if (parsed.success) onMessage(parsed.data);
    });
    port.onDisconnect.addListener(() => {
      port = undefined;
      if (closed) return;
      setTimeout(() => {
        connect();
        onReconnect();
      }, 100);
    });
  };
  connect();
  return () => {
    closed = true;
    port?.disconnect();
  };
}
