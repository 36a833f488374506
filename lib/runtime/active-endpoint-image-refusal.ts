import { ENDPOINT_FILE_LIMITS, fileEndpointKind } from '../files/file-limits';
import { endpointImageRefusal } from '../files/model-file-content';
import { activeProfile, ENDPOINT_PROFILES_STORAGE_KEY, resolveEndpointProfiles } from '../settings/endpoint-profiles';
import { ENDPOINT_STORAGE_KEY } from '../settings/endpoint-settings';
import type { KeyValueStore } from '../storage/key-value-store';

/**
 * Why the endpoint the next turn talks to (the active profile) cannot take images, or undefined when it can or
 * none is set up yet. Read only: folding in an endpoint of the old single key is the panel's and options' job.
 */
export async function activeEndpointImageRefusal(storage: KeyValueStore): Promise<string | undefined> {
  const [legacy, profiles] = await Promise.all([
    storage.get(ENDPOINT_STORAGE_KEY),
    storage.get(ENDPOINT_PROFILES_STORAGE_KEY),
  ]);
  const active = activeProfile(resolveEndpointProfiles({ legacy, profiles }).profiles);
  if (!active) return undefined;
  const kind = fileEndpointKind(active);
  return endpointImageRefusal(kind, ENDPOINT_FILE_LIMITS[kind]);
}
