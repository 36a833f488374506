import browser from 'webextension-polyfill';
import type { KeyValueStore } from '@/lib/storage/key-value-store';

/** `browser.storage.local` as a KeyValueStore. */
export const extensionKeyValueStore: KeyValueStore = {
  get: async (key) => (await browser.storage.local.get(key))[key],
  set: (key, value) => browser.storage.local.set({ [key]: value }),
  onChange: (key, listener) =>
    browser.storage.onChanged.addListener((changes, area) => {
      if (area === 'local' && key in changes) listener();
    }),
};
