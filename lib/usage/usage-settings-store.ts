import type { KeyValueStore } from '../storage/key-value-store';
import { parseStoredUsageSettings, USAGE_SETTINGS_KEY, type UsageSettings } from './usage-settings';

/** Prices, budgets and the browser-notification switch in storage, read once and kept until they change. */
export class UsageSettingsStore {
  private cached: Promise<UsageSettings> | undefined;

  constructor(private readonly storage: KeyValueStore) {
    storage.onChange(USAGE_SETTINGS_KEY, () => (this.cached = undefined));
  }

  load(): Promise<UsageSettings> {
    const loading = (this.cached ??= this.storage.get(USAGE_SETTINGS_KEY).then(parseStoredUsageSettings));
    loading.catch(() => {
      if (this.cached === loading) this.cached = undefined;
    });
    return loading;
  }

  async save(settings: UsageSettings): Promise<void> {
    await this.storage.set(USAGE_SETTINGS_KEY, settings);
    this.cached = undefined;
  }
}
