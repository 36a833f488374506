import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { startPageServers, type PageServers } from '../support/static-page-server';
import { pageTaskResponder, type PageTaskStep, type ToolResult } from '../support/page-task-model';
import { configureEndpoint, launchExtension, type ExtensionSession } from './extension-harness';
import { runTask } from './run-page-task';

/** The little of the extension API the test reads in the service worker. */
interface WorkerChrome {
  tabs: { query(query: object): Promise<{ url?: string; groupId: number }[]> };
}

interface ListedTab {
  tabId: number;
  url: string;
  owner: string;
}

const call =
  (name: string, args: Record<string, unknown>): PageTaskStep =>
  () => ({ toolCalls: [{ name, arguments: args }] });
const done: PageTaskStep = () => ({ text: 'Done.' });

function listedTabs(result: ToolResult | undefined): ListedTab[] {
  const tabs = result?.tabs;
  if (!Array.isArray(tabs)) throw new Error(`No tab list in ${JSON.stringify(result).slice(0, 2000)}`);
  return tabs as ListedTab[];
}

// A browser of its own: a worker the test has attached to (session.worker()) does not serve again after
// stopServiceWorker, so nothing here reads the worker before the stop.
describe('page tools: the tabs of a conversation across a service-worker restart, in Chromium', () => {
  let pages: PageServers;
  let server: ScriptedModelServer;
  let session: ExtensionSession;
  let panel: Page;
  let home: Page;
  let task: PageTaskStep[] = [];

  beforeAll(async () => {
    pages = await startPageServers();
    server = await startScriptedModelServer({ respond: pageTaskResponder(() => task) });
    session = await launchExtension();
    await configureEndpoint(session, server.url);
    home = await session.browser.newPage();
    await home.goto(`${pages.origin}/index.html`);
    panel = await session.openPanel();
  }, 60_000);

  afterAll(async () => {
    await session?.close();
    await server?.close();
    await pages?.close();
  });

  async function browserTabs(): Promise<{ url: string; groupId: number }[]> {
    const worker = await session.worker();
    return worker.evaluate(async () => {
      const { chrome } = globalThis as unknown as { chrome: WorkerChrome };
      return (await chrome.tabs.query({})).map((tab) => ({ url: tab.url ?? '', groupId: tab.groupId }));
    });
  }

  it('keeps the tabs a conversation opened, its current tab and its group across a service-worker restart', async () => {
    const valueUrl = `${pages.origin}/tab-value.html`;
    const formUrl = `${pages.origin}/tab-form.html`;
    task = [call('openTab', { url: valueUrl }), done];
    const first = await runTask(panel, 'Open the status page');
    expect(first).toEqual({ status: 'completed', asked: [`Open "${valueUrl}" in a new tab of this conversation.`] });

    // The panel is closed while the worker stops (its open port would keep the worker alive), then opened again.
    await panel.close();
    await session.stopServiceWorker();
    // The page in front is the user's home page again: only the record can say the status tab is the current one.
    await home.bringToFront();
    panel = await session.openPanel();
    let listed: ToolResult | undefined;
    task = [
      call('listTabs', {}),
      (last) => {
        listed = last;
        return { toolCalls: [{ name: 'openTab', arguments: { url: formUrl } }] };
      },
      done,
    ];
    const second = await runTask(panel, 'Open the claim form too');
    expect(second).toEqual({ status: 'completed', asked: [`Open "${formUrl}" in a new tab of this conversation.`] });
    const valueTab = listedTabs(listed).find((tab) => tab.url === valueUrl);
    expect(valueTab?.owner).toBe('agent');
    expect(listed?.currentTabId).toBe(valueTab?.tabId);
    const grouped = await browserTabs();
    const valueGroup = grouped.find((tab) => tab.url === valueUrl)?.groupId;
    expect(valueGroup).toBeGreaterThanOrEqual(0);
    expect(grouped.find((tab) => tab.url === formUrl)?.groupId).toBe(valueGroup);

    task = [call('closeTab', { tabId: valueTab?.tabId }), done];
    const third = await runTask(panel, 'Close the status tab you opened');
    expect(third).toEqual({ status: 'completed', asked: [] });
    expect((await browserTabs()).map((tab) => tab.url)).not.toContain(valueUrl);
  }, 90_000);
});
