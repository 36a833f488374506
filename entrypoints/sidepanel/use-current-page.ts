import { useCallback, useEffect, useState } from 'react';
import browser from 'webextension-polyfill';
import type { CurrentPageView } from '@/lib/protocol/current-page';
import { originPattern } from '@/lib/page-tools/choose-page';
import { SiteModesStore, type SiteMode } from '@/lib/settings/site-modes-store';
import { extensionKeyValueStore } from '../shared/extension-key-value-store';
import { callRuntime } from '../shared/call-runtime';

const siteModes = new SiteModesStore(extensionKeyValueStore);

/** Where this panel runs: its window, and its own tab when it is open in one. */
async function panelPlace(): Promise<{ windowId?: number; panelTabId?: number }> {
  const [window, tab] = await Promise.all([
    browser.windows.getCurrent().catch(() => undefined),
    browser.tabs.getCurrent().catch(() => undefined),
  ]);
  return {
    ...(window?.id !== undefined ? { windowId: window.id } : {}),
    ...(tab?.id !== undefined ? { panelTabId: tab.id } : {}),
  };
}

/** The page the page tools will act on, kept current as tabs, windows and permissions change. */
export function useCurrentPage(sessionId: string | undefined): {
  page: CurrentPageView | undefined;
  setMode(origin: string, mode: SiteMode): void;
} {
  const [page, setPage] = useState<CurrentPageView>();
  const refresh = useCallback(() => {
    void panelPlace()
      .then((place) => callRuntime({ type: 'page/current', ...(sessionId ? { sessionId } : {}), ...place }))
      .then(setPage, () => setPage(undefined));
  }, [sessionId]);
  useEffect(() => {
    refresh();
    const onUpdated = (_tabId: number, change: { status?: string; title?: string; url?: string }) => {
      if (change.status === 'complete' || change.title !== undefined || change.url !== undefined) refresh();
    };
    browser.tabs.onActivated.addListener(refresh);
    browser.tabs.onUpdated.addListener(onUpdated);
    browser.windows.onFocusChanged.addListener(refresh);
    browser.permissions.onAdded.addListener(refresh);
    browser.permissions.onRemoved.addListener(refresh);
    const stopWatchingModes = watchModes(refresh);
    return () => {
      browser.tabs.onActivated.removeListener(refresh);
      browser.tabs.onUpdated.removeListener(onUpdated);
      browser.windows.onFocusChanged.removeListener(refresh);
      browser.permissions.onAdded.removeListener(refresh);
      browser.permissions.onRemoved.removeListener(refresh);
      stopWatchingModes();
    };
  }, [refresh]);
  const setMode = useCallback(
    (origin: string, mode: SiteMode) => void siteModes.set(origin, mode).then(refresh),
    [refresh],
  );
  return { page, setMode };
}

function watchModes(listener: () => void): () => void {
  const onChanged = (changes: Record<string, unknown>, area: string) => {
    if (area === 'local' && 'pageSiteModes' in changes) listener();
  };
  browser.storage.onChanged.addListener(onChanged);
  return () => browser.storage.onChanged.removeListener(onChanged);
}

/**
 * Asks the browser for a site's host permission. Must be called synchronously inside the click handler of the
 * Allow button: the click is the user gesture the browser requires.
 */
export function requestSiteAccess(origin: string): Promise<boolean> {
  return browser.permissions.request({ origins: [originPattern(origin)] }).catch(() => false);
}
