import browser from 'webextension-polyfill';
import { ENDPOINT_STORAGE_KEY, parseEndpointSettings, type EndpointSettings } from '@/lib/settings/endpoint-settings';

export async function loadEndpoint(): Promise<EndpointSettings | undefined> {
  const stored = await browser.storage.local.get(ENDPOINT_STORAGE_KEY);
  return parseEndpointSettings(stored[ENDPOINT_STORAGE_KEY]);
}

export async function saveEndpoint(settings: EndpointSettings): Promise<void> {
  await browser.storage.local.set({ [ENDPOINT_STORAGE_KEY]: settings });
}

export function onEndpointChange(listener: (settings: EndpointSettings | undefined) => void): () => void {
  const handler = (changes: Record<string, { newValue?: unknown }>, area: string) => {
    if (area === 'local' && ENDPOINT_STORAGE_KEY in changes) listener(parseEndpointSettings(changes[ENDPOINT_STORAGE_KEY].newValue));
  };
  browser.storage.onChanged.addListener(handler);
  return () => browser.storage.onChanged.removeListener(handler);
}
