import { z } from 'zod';
import type { KeyValueStore } from '../storage/key-value-store';

export const SITE_MODES_KEY = 'pageSiteModes';

/** "ask": each side-effecting page action waits for an approval (the default); "allow": act without asking. */
export const siteModeSchema = z.enum(['ask', 'allow']);
export type SiteMode = z.infer<typeof siteModeSchema>;

const siteModesSchema = z.record(z.string().max(500), siteModeSchema);
export type SiteModes = z.infer<typeof siteModesSchema>;

/** A broken stored value reads as no site allowed to act without asking. */
export function parseStoredSiteModes(stored: unknown): SiteModes {
  const parsed = siteModesSchema.safeParse(stored ?? {});
  return parsed.success ? parsed.data : {};
}

export function siteModeOf(modes: SiteModes, origin: string): SiteMode {
  return modes[origin] ?? 'ask';
}

/** Per-site acting modes in extension storage, set from the panel and the options page. */
export class SiteModesStore {
  constructor(private readonly storage: KeyValueStore) {}

  async load(): Promise<SiteModes> {
    return parseStoredSiteModes(await this.storage.get(SITE_MODES_KEY));
  }

  async mode(origin: string): Promise<SiteMode> {
    return siteModeOf(await this.load(), origin);
  }

  async set(origin: string, mode: SiteMode): Promise<void> {
    const modes = await this.load();
    const next = { ...modes };
    if (mode === 'ask') delete next[origin];
    else next[origin] = mode;
    await this.storage.set(SITE_MODES_KEY, next);
  }
}
