/** A browser tab as the page tools see it. */
export interface PageTab {
  tabId: number;
  windowId: number;
  url?: string;
  title?: string;
  active: boolean;
  lastAccessed?: number;
}

/** Where the panel that asks runs: a side panel or sidebar (no tab of its own), or a tab of its window. */
export interface PanelPlace {
  windowId?: number;
  panelTabId?: number;
}

export type PageChoice =
  | { ok: true; tab: PageTab; origin: string; title: string }
  | { ok: false; code: 'NO_PAGE'; reason: string; tab?: PageTab };

const STORE_HOSTS = ['chromewebstore.google.com', 'addons.mozilla.org', 'microsoftedge.microsoft.com'];

/** Why Splitbrain may not act on this address, or undefined when it may. */
export function pageRefusal(url: string | undefined): string | undefined {
  if (!url) return 'The browser does not say which page this tab shows.';
  const parsed = URL.parse(url);
  if (!parsed) return `"${url}" is not a web page address.`;
  if (parsed.protocol.endsWith('-extension:')) return 'This is an extension page; extensions may not act on it.';
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:' && parsed.protocol !== 'file:')
    return `This is a browser page (${parsed.protocol}); the browser does not let extensions act on it.`;
  const storePath = parsed.hostname === 'chrome.google.com' && parsed.pathname.startsWith('/webstore');
  if (STORE_HOSTS.includes(parsed.hostname) || storePath)
    return 'This is an extension store page; the browser does not let extensions act on it.';
  return undefined;
}

/** The origin a site permission is asked for: scheme and host (every port), `file://` for local files. */
export function siteOrigin(url: string): string {
  const parsed = new URL(url);
  return parsed.protocol === 'file:' ? 'file://' : `${parsed.protocol}//${parsed.hostname}`;
}

/** The match pattern of a site's optional host permission. */
export function originPattern(origin: string): string {
  return origin === 'file://' ? 'file:///*' : `${origin}/*`;
}

/** A short name of the site for the user: its host, or "local files". */
export function siteLabel(origin: string): string {
  return origin === 'file://' ? 'local files' : origin.replace(/^https?:\/\//, '');
}

function isWebTab(tab: PageTab): boolean {
  return /^(https?|file):/.test(tab.url ?? '') && pageRefusal(tab.url) === undefined;
}

/**
 * The page the tools act on: the active tab of the panel's window; when the panel itself is that tab, the most
 * recently active web tab of the window.
 */
export function choosePage(tabs: readonly PageTab[], place: PanelPlace): PageChoice {
  const inWindow = tabs.filter((tab) => place.windowId === undefined || tab.windowId === place.windowId);
  const active = inWindow.find((tab) => tab.active && tab.tabId !== place.panelTabId);
  const chosen = active ?? latestWebTab(inWindow.filter((tab) => tab.tabId !== place.panelTabId));
  if (!chosen) return { ok: false, code: 'NO_PAGE', reason: 'No web page is open in this window.' };
  return chooseTab(chosen);
}

/** One tab as the page the tools act on, or why it cannot be. */
export function chooseTab(tab: PageTab): PageChoice {
  const refusal = pageRefusal(tab.url);
  if (refusal) return { ok: false, code: 'NO_PAGE', reason: refusal, tab };
  return { ok: true, tab, origin: siteOrigin(tab.url ?? ''), title: tab.title ?? '' };
}

function latestWebTab(tabs: readonly PageTab[]): PageTab | undefined {
  return tabs.filter(isWebTab).sort((a, b) => (b.lastAccessed ?? 0) - (a.lastAccessed ?? 0))[0];
}
