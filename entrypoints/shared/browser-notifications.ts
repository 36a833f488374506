import browser from 'webextension-polyfill';
import { sessionOfNotice, type WaitingNotice } from '@/lib/notify/waiting-notice';

/** The key the side panel reads at start to know which conversation to open. */
const LAST_SESSION_KEY = 'lastSessionId';
const SHOWN_KEPT = 20;

interface ChromeSidePanel {
  sidePanel: { open(options: { windowId: number }): Promise<void> };
}

/**
 * The last notifications this worker created, newest last: Puppeteer cannot see the system's notifications, so the
 * e2e test reads this list through the service worker's `evaluate`.
 */
export const shownNotifications: (WaitingNotice & { error?: string })[] = [];

function keep(entry: WaitingNotice & { error?: string }): void {
  shownNotifications.push(entry);
  if (shownNotifications.length > SHOWN_KEPT) shownNotifications.shift();
}

export function notificationsPermitted(): Promise<boolean> {
  return browser.permissions.contains({ permissions: ['notifications'] }).catch(() => false);
}

export async function showNotification(notice: WaitingNotice): Promise<void> {
  try {
    listenForClicks();
    await browser.notifications.create(notice.notificationId, {
      type: 'basic',
      iconUrl: browser.runtime.getURL('/icon/128.png'),
      title: notice.title,
      message: notice.message,
    });
    keep(notice);
  } catch (error) {
    keep({ ...notice, error: String(error) });
    console.warn('Could not show a browser notification:', error);
  }
}

let lastFocusedWindowId: number | undefined;
let listening = false;

/** The panel can only be opened inside the click, with nothing awaited first, so the window is known beforehand. */
function trackFocusedWindow(): void {
  Promise.resolve()
    .then(() => browser.windows.getLastFocused())
    .then((found) => (lastFocusedWindowId ??= found.id))
    .catch(() => undefined);
  browser.windows.onFocusChanged.addListener((windowId) => {
    if (windowId !== browser.windows.WINDOW_ID_NONE) lastFocusedWindowId = windowId;
  });
}

function openPanel(): Promise<unknown> {
  if (import.meta.env.BROWSER === 'firefox') return browser.sidebarAction.open();
  const { sidePanel } = (globalThis as unknown as { chrome: ChromeSidePanel }).chrome;
  if (lastFocusedWindowId === undefined) return Promise.reject(new Error('No browser window is known.'));
  return sidePanel.open({ windowId: lastFocusedWindowId });
}

/** Clicking a waiting notification opens the panel on its conversation (in a tab if the side panel will not open). */
export function openPanelOnNotificationClick(): void {
  trackFocusedWindow();
  listenForClicks();
}

/** `notifications` exists only while its optional permission is granted; the worker may start before the grant. */
function listenForClicks(): void {
  if (listening || !browser.notifications) return;
  listening = true;
  browser.notifications.onClicked.addListener(openOnClick);
}

function openOnClick(notificationId: string): void {
  const sessionId = sessionOfNotice(notificationId);
  if (!sessionId) return;
  const remembered = browser.storage.local.set({ [LAST_SESSION_KEY]: sessionId });
  openPanel().catch(async () => {
    await remembered;
    await browser.tabs.create({ url: browser.runtime.getURL('/sidepanel.html') });
  });
  void browser.notifications.clear(notificationId);
}
