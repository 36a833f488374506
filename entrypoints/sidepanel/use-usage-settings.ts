import { useEffect, useState } from 'react';
import { DEFAULT_USAGE_SETTINGS, type UsageSettings } from '@/lib/usage/usage-settings';
import { UsageSettingsStore } from '@/lib/usage/usage-settings-store';
import { extensionKeyValueStore } from '../shared/extension-key-value-store';

const store = new UsageSettingsStore(extensionKeyValueStore);

/** Prices, budgets and the notification switch, kept current when the options page changes them. */
export function useUsageSettings(): UsageSettings {
  const [settings, setSettings] = useState<UsageSettings>(DEFAULT_USAGE_SETTINGS);
  useEffect(() => {
    let live = true;
    const reload = () => void store.load().then((loaded) => live && setSettings(loaded));
    reload();
    extensionKeyValueStore.onChange('usageSettings', () => setTimeout(reload));
    return () => {
      live = false;
    };
  }, []);
  return settings;
}
