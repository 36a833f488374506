import browser from 'webextension-polyfill';

interface ChromeSidePanel {
  open(options: { windowId: number }): Promise<void>;
}

/**
 * Opens the chat panel. Both browsers allow this only inside a user gesture, and Firefox only
 * synchronously, so the window id is looked up beforehand and nothing is awaited first.
 */
export function openChat(windowId: number | undefined): Promise<void> {
  if (import.meta.env.BROWSER === 'firefox') return browser.sidebarAction.open();
  const sidePanel = (globalThis as unknown as { chrome: { sidePanel: ChromeSidePanel } }).chrome.sidePanel;
  if (windowId === undefined) return Promise.reject(new Error('The browser window is not known yet; try again.'));
  return sidePanel.open({ windowId });
}

export async function currentWindowId(): Promise<number | undefined> {
  return (await browser.windows.getCurrent()).id;
}

/** True when this page is the toolbar popup rather than a tab (as in tests). */
export function isToolbarPopup(): boolean {
  return browser.extension.getViews({ type: 'popup' }).includes(window);
}
