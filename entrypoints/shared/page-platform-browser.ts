import browser, { type Tabs } from 'webextension-polyfill';
import { z } from 'zod';
import { originPattern, type PageTab } from '@/lib/page-tools/choose-page';
import type { PagePlatform } from '@/lib/page-tools/page-platform';
import { watchTabActivity } from './watch-tab-activity';
import { browserDownloads } from './browser-downloads';

/** Built from `entrypoints/page-agent.content.ts` (WXT `registration: 'runtime'`), injected on demand only. */
const PAGE_AGENT_FILE = '/content-scripts/page-agent.js';

function pageTab(tab: Tabs.Tab): PageTab | undefined {
  if (tab.id === undefined || tab.windowId === undefined) return undefined;
  return {
    tabId: tab.id,
    windowId: tab.windowId,
    active: tab.active,
    ...(tab.url ? { url: tab.url } : {}),
    ...(tab.title ? { title: tab.title } : {}),
    ...(tab.lastAccessed ? { lastAccessed: tab.lastAccessed } : {}),
  };
}

const PAGE_TOOLS_BRIDGE_FILE = '/content-scripts/page-tools-bridge.js';

/** Injecting again into a document that has the agent is harmless (it keeps its state), and reaches new frames. */
async function inject(tabId: number): Promise<void> {
  if (browser.scripting) {
    const target = { tabId, allFrames: true };
    await browser.scripting.executeScript({ target, files: [PAGE_AGENT_FILE] });
    await browser.scripting.executeScript({ target, files: [PAGE_TOOLS_BRIDGE_FILE], world: 'MAIN' }).catch(() => []);
    return;
  }
  await browser.tabs.executeScript(tabId, { file: PAGE_AGENT_FILE, allFrames: true });
}

/** Resolves once the tab reports a finished load after `start` ran, or after `timeoutMs`. */
function loadAfter(tabId: number, start: () => Promise<unknown>, timeoutMs: number, loadingNow = false): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let loading = loadingNow;
    const finish = () => {
      clearTimeout(timer);
      browser.tabs.onUpdated.removeListener(listener);
      resolve();
    };
    const listener = (updatedId: number, change: Tabs.OnUpdatedChangeInfoType) => {
      if (updatedId !== tabId) return;
      if (change.status === 'loading') loading = true;
      if (change.status === 'complete' && loading) finish();
    };
    const timer = setTimeout(finish, timeoutMs);
    browser.tabs.onUpdated.addListener(listener);
    start().catch((error: unknown) => {
      clearTimeout(timer);
      browser.tabs.onUpdated.removeListener(listener);
      reject(error instanceof Error ? error : new Error(String(error)));
    });
  });
}

function bytesOfDataUrl(dataUrl: string): Uint8Array {
  const base64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
  return Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
}

/** Chrome's `tabs.group` and `tabGroups` (Firefox's too, from 139): not in the polyfill's types. */
interface TabGroupApis {
  group?(options: { tabIds: number[]; groupId?: number; createProperties?: { windowId?: number } }): Promise<unknown>;
}
interface TabGroupTitles {
  update?(groupId: number, change: { title: string }): Promise<unknown>;
}

const groupIdSchema = z.number().int().min(0);

async function groupTab(tabId: number, title: string, groupId: number | undefined): Promise<number | undefined> {
  const tabs = browser.tabs as unknown as TabGroupApis;
  if (typeof tabs.group !== 'function') return undefined;
  const grouped = groupIdSchema.safeParse(
    await tabs.group(groupId === undefined ? { tabIds: [tabId] } : { tabIds: [tabId], groupId }),
  );
  if (!grouped.success) return undefined;
  const titles = (browser as unknown as { tabGroups?: TabGroupTitles }).tabGroups;
  if (groupId === undefined && typeof titles?.update === 'function')
    await titles.update(grouped.data, { title: title.slice(0, 80) });
  return grouped.data;
}

async function openTab(url: string, windowId: number | undefined, timeoutMs: number) {
  const created = pageTab(
    await browser.tabs.create({ url, active: true, ...(windowId === undefined ? {} : { windowId }) }),
  );
  if (!created) throw new Error('The browser opened no tab.');
  await browserPagePlatform.waitForLoad(created.tabId, timeoutMs);
  return (await browserPagePlatform.tab(created.tabId)) ?? created;
}

export const browserPagePlatform: PagePlatform = {
  tabs: async (windowId) =>
    (await browser.tabs.query(windowId === undefined ? { lastFocusedWindow: true } : { windowId })).flatMap(
      (tab) => pageTab(tab) ?? [],
    ),
  tab: async (tabId) => {
    const tab = await browser.tabs.get(tabId).catch(() => undefined);
    return tab ? pageTab(tab) : undefined;
  },
  openTab,
  activateTab: async (tabId) => {
    await browser.tabs.update(tabId, { active: true });
  },
  closeTab: (tabId) => browser.tabs.remove(tabId),
  groupTab,
  hasAccess: (origin) => browser.permissions.contains({ origins: [originPattern(origin)] }),
  ensureAgent: inject,
  frames: async (tabId) =>
    ((await browser.webNavigation.getAllFrames({ tabId })) ?? []).map((frame) => ({
      frameId: frame.frameId,
      parentFrameId: frame.parentFrameId,
      url: frame.url,
    })),
  send: (tabId, frameId, request) => browser.tabs.sendMessage(tabId, request, { frameId }),
  capture: async (windowId) => bytesOfDataUrl(await browser.tabs.captureVisibleTab(windowId, { format: 'png' })),
  zoom: (tabId) => browser.tabs.getZoom(tabId),
  navigate: (tabId, url, timeoutMs) => loadAfter(tabId, () => browser.tabs.update(tabId, { url }), timeoutMs),
  back: (tabId, timeoutMs) => loadAfter(tabId, () => browser.tabs.goBack(tabId), timeoutMs),
  waitForLoad: async (tabId, timeoutMs) => {
    const tab = await browser.tabs.get(tabId);
    // An unloading document may not have started the next load yet: give it a moment to, then take it as done.
    if (tab.status === 'complete') return loadAfter(tabId, async () => undefined, Math.min(timeoutMs, 1_000));
    return loadAfter(tabId, async () => undefined, timeoutMs, true);
  },
  watchTab: watchTabActivity,
  downloads: browserDownloads,
  sessionValues: {
    get: async (key) => (await browser.storage.session.get(key))[key],
    set: (key, value) => browser.storage.session.set({ [key]: value }),
    remove: (key) => browser.storage.session.remove(key),
  },
};
