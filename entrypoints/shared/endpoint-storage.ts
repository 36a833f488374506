import browser from 'webextension-polyfill';
import {
  activeProfile,
  ENDPOINT_PROFILES_STORAGE_KEY,
  resolveEndpointProfiles,
  serializeEndpointProfiles,
  type EndpointProfile,
  type EndpointProfiles,
} from '@/lib/settings/endpoint-profiles';
import { ENDPOINT_STORAGE_KEY } from '@/lib/settings/endpoint-settings';

/** The saved profiles; an endpoint written under the old single key is folded in and the old key removed. */
export async function loadEndpointProfiles(): Promise<EndpointProfiles> {
  const stored = await browser.storage.local.get([ENDPOINT_STORAGE_KEY, ENDPOINT_PROFILES_STORAGE_KEY]);
  const { profiles, migrated } = resolveEndpointProfiles({
    legacy: stored[ENDPOINT_STORAGE_KEY],
    profiles: stored[ENDPOINT_PROFILES_STORAGE_KEY],
  });
  if (migrated) {
    await browser.storage.local.set({ [ENDPOINT_PROFILES_STORAGE_KEY]: serializeEndpointProfiles(profiles) });
    await browser.storage.local.remove(ENDPOINT_STORAGE_KEY);
  }
  return profiles;
}

export async function saveEndpointProfiles(profiles: EndpointProfiles): Promise<void> {
  await browser.storage.local.set({ [ENDPOINT_PROFILES_STORAGE_KEY]: serializeEndpointProfiles(profiles) });
}

/** The active profile, which is what a turn talks to. */
export async function loadEndpoint(): Promise<EndpointProfile | undefined> {
  return activeProfile(await loadEndpointProfiles());
}

export function onEndpointChange(listener: (settings: EndpointProfile | undefined) => void): () => void {
  const handler = (changes: Record<string, { newValue?: unknown }>, area: string) => {
    if (area !== 'local') return;
    if (ENDPOINT_STORAGE_KEY in changes && changes[ENDPOINT_STORAGE_KEY].newValue !== undefined) {
      // Migrating writes the profiles key, which brings us back here with the result.
      void loadEndpointProfiles();
      return;
    }
    if (ENDPOINT_PROFILES_STORAGE_KEY in changes)
      listener(
        activeProfile(resolveEndpointProfiles({ profiles: changes[ENDPOINT_PROFILES_STORAGE_KEY].newValue }).profiles),
      );
  };
  browser.storage.onChanged.addListener(handler);
  return () => browser.storage.onChanged.removeListener(handler);
}
