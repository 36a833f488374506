import { z } from 'zod';
import { endpointSettingsSchema, parseEndpointSettings, type EndpointSettings } from './endpoint-settings';

export const ENDPOINT_PROFILES_STORAGE_KEY = 'endpointProfiles';
/** The id a profile migrated from the single-endpoint key gets, so writing that key again updates the same profile. */
export const LEGACY_PROFILE_ID = 'legacy-endpoint';

const profileId = z.string().min(1).max(100);

/** One saved endpoint: its settings plus a stable id. */
export type EndpointProfile = EndpointSettings & { id: string };

export interface EndpointProfiles {
  activeId: string | undefined;
  profiles: EndpointProfile[];
}

const storedShapeSchema = z.object({
  activeId: profileId.optional(),
  profiles: z.array(z.unknown()).max(100),
});

const emptyEndpointProfiles: EndpointProfiles = { activeId: undefined, profiles: [] };

/** Reads one profile; undefined when it does not validate. */
function parseEndpointProfile(value: unknown): EndpointProfile | undefined {
  const id = z.object({ id: profileId }).safeParse(value);
  const settings = parseEndpointSettings(value);
  return id.success && settings ? { ...settings, id: id.data.id } : undefined;
}

/** Validates the stored profiles one by one, so one broken profile does not hide the others. */
export function parseEndpointProfiles(value: unknown): EndpointProfiles {
  const parsed = storedShapeSchema.safeParse(value);
  if (!parsed.success) return emptyEndpointProfiles;
  const profiles = parsed.data.profiles.map(parseEndpointProfile).filter((profile) => profile !== undefined);
  const activeId = profiles.some((profile) => profile.id === parsed.data.activeId)
    ? parsed.data.activeId
    : profiles[0]?.id;
  return { activeId, profiles };
}

export function activeProfile(store: EndpointProfiles): EndpointProfile | undefined {
  return store.profiles.find((profile) => profile.id === store.activeId);
}

/** Adds the profile, or replaces the one with the same id in place. */
export function upsertProfile(store: EndpointProfiles, profile: EndpointProfile): EndpointProfiles {
  const exists = store.profiles.some((candidate) => candidate.id === profile.id);
  const profiles = exists
    ? store.profiles.map((candidate) => (candidate.id === profile.id ? profile : candidate))
    : [...store.profiles, profile];
  return { activeId: store.activeId ?? profile.id, profiles };
}

/** Removes the profile; when it was active, the first remaining one becomes active. */
export function deleteProfile(store: EndpointProfiles, id: string): EndpointProfiles {
  const profiles = store.profiles.filter((profile) => profile.id !== id);
  const activeId = store.activeId === id ? profiles[0]?.id : store.activeId;
  return { activeId, profiles };
}

export function selectProfile(store: EndpointProfiles, id: string): EndpointProfiles {
  return store.profiles.some((profile) => profile.id === id) ? { ...store, activeId: id } : store;
}

export interface StoredEndpointValues {
  /** The single endpoint of earlier versions. */
  legacy?: unknown;
  profiles?: unknown;
}

/**
 * The profiles to use, folding in an endpoint written under the old single key: it becomes (or replaces)
 * the profile LEGACY_PROFILE_ID and is made active, because whoever wrote it last meant to use it.
 * `migrated` tells the caller to write the result back and remove the old key.
 */
export function resolveEndpointProfiles(stored: StoredEndpointValues): {
  profiles: EndpointProfiles;
  migrated: boolean;
} {
  const profiles = parseEndpointProfiles(stored.profiles);
  if (stored.legacy === undefined) return { profiles, migrated: false };
  const legacy = parseEndpointSettings(stored.legacy);
  if (!legacy) return { profiles, migrated: true };
  const upserted = upsertProfile(profiles, { ...legacy, id: LEGACY_PROFILE_ID });
  return { profiles: { ...upserted, activeId: LEGACY_PROFILE_ID }, migrated: true };
}

/** What storage keeps: validated profiles only. */
export function serializeEndpointProfiles(store: EndpointProfiles): { activeId?: string; profiles: unknown[] } {
  const profiles = store.profiles.map((profile) => ({ ...endpointSettingsSchema.parse(profile), id: profile.id }));
  return { ...(store.activeId ? { activeId: store.activeId } : {}), profiles };
}
