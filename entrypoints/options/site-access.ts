import { useCallback, useEffect, useState } from 'react';
import browser from 'webextension-polyfill';
import type { SiteAccessEntry } from '@/components/settings/site-access-list';
import { originPattern } from '@/lib/page-tools/choose-page';
import { SiteModesStore, siteModeOf, type SiteMode } from '@/lib/settings/site-modes-store';
import { extensionKeyValueStore } from '../shared/extension-key-value-store';

const siteModes = new SiteModesStore(extensionKeyValueStore);

/** `https://example.com/*` → `https://example.com`; the all-sites patterns are not one site and are left out. */
function originOfPattern(pattern: string): string | undefined {
  if (pattern === 'file:///*') return 'file://';
  const match = /^(https?):\/\/([^/*]+)\/\*$/.exec(pattern);
  return match ? `${match[1]}://${match[2]}` : undefined;
}

/** The granted sites (optional host permissions) with their acting modes, kept current. */
export function useSiteAccess(): {
  sites: SiteAccessEntry[] | undefined;
  setMode(origin: string, mode: SiteMode): void;
  revoke(origin: string): void;
} {
  const [sites, setSites] = useState<SiteAccessEntry[]>();
  const refresh = useCallback(() => {
    void Promise.all([browser.permissions.getAll(), siteModes.load()]).then(([granted, modes]) =>
      setSites(
        (granted.origins ?? [])
          .flatMap((pattern) => originOfPattern(pattern) ?? [])
          .sort()
          .map((origin) => ({ origin, mode: siteModeOf(modes, origin) })),
      ),
    );
  }, []);
  useEffect(() => {
    refresh();
    browser.permissions.onAdded.addListener(refresh);
    browser.permissions.onRemoved.addListener(refresh);
    return () => {
      browser.permissions.onAdded.removeListener(refresh);
      browser.permissions.onRemoved.removeListener(refresh);
    };
  }, [refresh]);
  return {
    sites,
    setMode: (origin, mode) => void siteModes.set(origin, mode).then(refresh),
    revoke: (origin) => void browser.permissions.remove({ origins: [originPattern(origin)] }).then(refresh),
  };
}
