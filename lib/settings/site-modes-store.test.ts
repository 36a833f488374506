import { describe, expect, it } from 'vitest';
import type { KeyValueStore } from '../storage/key-value-store';
import { SITE_MODES_KEY, SiteModesStore } from './site-modes-store';

function memoryStore(initial: Record<string, unknown> = {}): KeyValueStore {
  const values = new Map(Object.entries(initial));
  return {
    get: async (key) => values.get(key),
    set: async (key, value) => void values.set(key, value),
    onChange: () => undefined,
  };
}

describe('SiteModesStore', () => {
  it('asks before acting on a site nobody set', async () => {
    expect(await new SiteModesStore(memoryStore()).mode('https://example.com')).toBe('ask');
  });

  it('keeps "act without asking" per site and forgets it when set back', async () => {
    const store = new SiteModesStore(memoryStore());
    await store.set('https://example.com', 'allow');
    expect(await store.mode('https://example.com')).toBe('allow');
    expect(await store.mode('https://other.test')).toBe('ask');
    await store.set('https://example.com', 'ask');
    expect(await store.load()).toEqual({});
  });

  it('reads a broken stored value as asking everywhere', async () => {
    const store = new SiteModesStore(memoryStore({ [SITE_MODES_KEY]: { 'https://example.com': 'always' } }));
    expect(await store.mode('https://example.com')).toBe('ask');
  });
});
