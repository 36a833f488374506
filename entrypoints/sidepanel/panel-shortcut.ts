import { useEffect, useState } from 'react';
import browser from 'webextension-polyfill';
import type { PanelShortcut } from '@/components/chat/shortcut-hint';
import { openPanelShortcut } from '@/lib/panel/open-panel-command';

const CHROME_SHORTCUTS_PAGE = 'chrome://extensions/shortcuts';

function openShortcutSettings(): void {
  if (import.meta.env.BROWSER === 'firefox') {
    void browser.commands.openShortcutSettings();
    return;
  }
  void browser.tabs.create({ url: CHROME_SHORTCUTS_PAGE });
}

/** The panel's keyboard shortcut, read again whenever the panel regains focus (the user may just have changed it). */
export function usePanelShortcut(): PanelShortcut | undefined {
  const [keys, setKeys] = useState<string>();
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    const read = () =>
      void browser.commands.getAll().then((commands) => {
        setKeys(openPanelShortcut(commands));
        setLoaded(true);
      });
    read();
    window.addEventListener('focus', read);
    return () => window.removeEventListener('focus', read);
  }, []);
  return loaded ? { keys, onChange: openShortcutSettings } : undefined;
}
