import { describe, expect, it } from 'vitest';
import {
  activeProfile,
  deleteProfile,
  LEGACY_PROFILE_ID,
  parseEndpointProfiles,
  resolveEndpointProfiles,
  selectProfile,
  serializeEndpointProfiles,
  upsertProfile,
  type EndpointProfile,
} from './endpoint-profiles';
import { endpointModelName, parseEndpointSettings } from './endpoint-settings';

const legacyDemo = {
  kind: 'openai-compatible',
  label: 'Scripted demo model',
  baseUrl: 'http://127.0.0.1:4010/v1',
  model: 'scripted-model',
  apiKey: '',
  scripted: true,
};

const anthropic: EndpointProfile = {
  id: 'a',
  kind: 'anthropic',
  label: 'Claude',
  baseUrl: 'https://api.anthropic.com/v1',
  model: 'claude-sonnet-4-5',
  apiKey: 'sk-ant',
  scripted: false,
};
const gemini: EndpointProfile = {
  id: 'g',
  kind: 'google',
  label: 'Gemini',
  baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
  model: 'gemini-2.5-flash',
  apiKey: 'AIza',
  scripted: false,
};

describe('endpoint settings', () => {
  it('fills in per-kind defaults: base URL, label, OpenAI API flavour, continuation', () => {
    expect(parseEndpointSettings({ kind: 'openai', model: 'gpt-4.1-mini', apiKey: 'sk' })).toEqual({
      kind: 'openai',
      label: 'OpenAI',
      baseUrl: 'https://api.openai.com/v1',
      model: 'gpt-4.1-mini',
      apiKey: 'sk',
      scripted: false,
      api: 'chat',
    });
    expect(parseEndpointSettings({ kind: 'google', model: 'gemini-2.5-flash' })).toMatchObject({
      baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
      label: 'Google Gemini',
    });
    expect(
      parseEndpointSettings({ kind: 'ai-sdk-chat', baseUrl: 'http://localhost:3000/api/chat', model: 'default' }),
    ).toMatchObject({ continuation: false });
  });

  it('rejects what cannot work: no base URL for a compatible server, a non-http scheme, an unknown kind, an empty model', () => {
    expect(parseEndpointSettings({ kind: 'openai-compatible', model: 'llama3.1' })).toBeUndefined();
    expect(
      parseEndpointSettings({ kind: 'anthropic', baseUrl: 'file:///etc/passwd', model: 'claude' }),
    ).toBeUndefined();
    expect(
      parseEndpointSettings({ kind: 'mistral', baseUrl: 'https://api.mistral.ai/v1', model: 'large' }),
    ).toBeUndefined();
    expect(parseEndpointSettings({ kind: 'openai', model: '  ' })).toBeUndefined();
  });
});

describe('endpoint profiles', () => {
  it('keeps valid profiles when one stored profile is broken, and falls back to the first as active', () => {
    const store = parseEndpointProfiles({
      activeId: 'gone',
      profiles: [anthropic, { id: 'x', kind: 'anthropic' }, gemini],
    });
    expect(store.profiles.map((profile) => profile.id)).toEqual(['a', 'g']);
    expect(store.activeId).toBe('a');
    expect(parseEndpointProfiles('nonsense')).toEqual({ activeId: undefined, profiles: [] });
  });

  it('adds, replaces in place, selects and deletes; deleting the active one activates the first left', () => {
    let store = upsertProfile(upsertProfile({ activeId: undefined, profiles: [] }, anthropic), gemini);
    expect(store.activeId).toBe('a');
    store = upsertProfile(store, { ...anthropic, model: 'claude-opus-4-1' });
    expect(store.profiles.map((profile) => [profile.id, endpointModelName(profile)])).toEqual([
      ['a', 'claude-opus-4-1'],
      ['g', 'gemini-2.5-flash'],
    ]);
    store = selectProfile(store, 'g');
    expect(activeProfile(store)?.label).toBe('Gemini');
    expect(selectProfile(store, 'missing')).toBe(store);
    store = deleteProfile(store, 'g');
    expect(store).toEqual({ activeId: 'a', profiles: [{ ...anthropic, model: 'claude-opus-4-1' }] });
    expect(deleteProfile(store, 'a')).toEqual({ activeId: undefined, profiles: [] });
  });

  it('migrates the single endpoint key written by npm start and the e2e harness into an active profile', () => {
    const fresh = resolveEndpointProfiles({ legacy: legacyDemo });
    expect(fresh.migrated).toBe(true);
    expect(fresh.profiles.activeId).toBe(LEGACY_PROFILE_ID);
    expect(activeProfile(fresh.profiles)).toMatchObject({ ...legacyDemo, id: LEGACY_PROFILE_ID });

    const alongside = resolveEndpointProfiles({
      legacy: { ...legacyDemo, model: 'other' },
      profiles: serializeEndpointProfiles({
        activeId: 'a',
        profiles: [anthropic, { ...legacyDemo, id: LEGACY_PROFILE_ID } as EndpointProfile],
      }),
    });
    expect(alongside.profiles.profiles.map((profile) => profile.id)).toEqual(['a', LEGACY_PROFILE_ID]);
    expect(endpointModelName(activeProfile(alongside.profiles)!)).toBe('other');

    expect(resolveEndpointProfiles({ profiles: { activeId: 'a', profiles: [anthropic] } }).migrated).toBe(false);
    expect(resolveEndpointProfiles({ legacy: { kind: 'broken' } })).toEqual({
      profiles: { activeId: undefined, profiles: [] },
      migrated: true,
    });
  });

  it('serializes only validated settings and the id', () => {
    const serialized = serializeEndpointProfiles({
      activeId: 'a',
      profiles: [{ ...anthropic, extra: 'dropped' } as EndpointProfile],
    });
    expect(serialized).toEqual({ activeId: 'a', profiles: [anthropic] });
  });
});
