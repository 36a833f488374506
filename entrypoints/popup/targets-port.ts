import browser from 'webextension-polyfill';
import { openReconnectingPort } from '@/lib/protocol/reconnecting-port';
import { targetsPortMessageSchema, type TargetsPortMessage } from '@/lib/protocol/runtime-message';

/** The `targets` port, reopened whenever the service worker goes away; `onReconnect` lets the caller catch up. */
export function openTargetsPort(onMessage: (message: TargetsPortMessage) => void, onReconnect: () => void): () => void {
  const port = openReconnectingPort<never, TargetsPortMessage>({
    name: 'targets',
    connect: (name) => browser.runtime.connect({ name }),
    schema: targetsPortMessageSchema,
    onMessage,
    onReconnect,
  });
  return () => port.close();
}
