import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { startPageServers, type PageServers } from '../support/static-page-server';
import {
  actOn,
  observationIn,
  pageTaskResponder,
  type PageTaskStep,
  type ToolResult,
} from '../support/page-task-model';
import { configureEndpoint, launchExtension, type ExtensionSession } from './extension-harness';
import { runTask } from './run-page-task';

interface BrowserTab {
  id: number;
  url: string;
  groupId: number;
}

/** The little of the extension API the test reads in the service worker. */
interface WorkerChrome {
  tabs: { query(query: object): Promise<{ id?: number; url?: string; groupId: number }[]> };
  tabGroups: { get(groupId: number): Promise<{ title?: string }> };
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

describe('page tools: the tabs of a conversation, in Chromium', () => {
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

  /** The browser's own view of its tabs and groups, from the extension's service worker. */
  async function browserTabs(): Promise<BrowserTab[]> {
    const worker = await session.worker();
    return worker.evaluate(async () => {
      const { chrome } = globalThis as unknown as { chrome: WorkerChrome };
      return (await chrome.tabs.query({})).map((tab) => ({
        id: tab.id ?? -1,
        url: tab.url ?? '',
        groupId: tab.groupId,
      }));
    });
  }

  async function groupTitle(groupId: number): Promise<string> {
    const worker = await session.worker();
    return worker.evaluate(async (id) => {
      const { chrome } = globalThis as unknown as { chrome: WorkerChrome };
      return (await chrome.tabGroups.get(id)).title ?? '';
    }, groupId);
  }

  it('reads a value in a tab it opens, types it into a form in another, submits, then closes the tabs it opened', async () => {
    const valueUrl = `${pages.origin}/tab-value.html`;
    const formUrl = `${pages.origin}/tab-form.html`;
    let code = '';
    let valueObservation = '';
    let stale: ToolResult | undefined;
    task = [
      call('openTab', { url: valueUrl }),
      (last) => {
        valueObservation = String(observationIn(last).observationId);
        code = /\b[A-Z]\d-\d{4}\b/.exec(String(observationIn(last).snapshot))?.[0] ?? '';
        return { toolCalls: [{ name: 'openTab', arguments: { url: formUrl } }] };
      },
      // An action quoting the first tab's observation, now that the form's tab is the current one.
      () => ({
        toolCalls: [
          { name: 'actOnPage', arguments: { observationId: valueObservation, action: 'focus', selector: '#code' } },
        ],
      }),
      (last) => {
        stale = last;
        return actOn('textbox', 'Order code', 'type', { text: code })(last);
      },
      actOn('button', 'Send claim', 'click'),
      done,
    ];
    const request = 'Claim a refund for the order on the status page';
    const first = await runTask(panel, request);
    expect(first.status).toBe('completed');
    expect(code).toBe('K7-4421');
    expect(stale).toMatchObject({ ok: false, code: 'STALE_OBSERVATION', observation: { url: formUrl } });
    expect(String(stale?.error)).toMatch(
      /^STALE_OBSERVATION: That observation is of tab \d+, not of this conversation's current tab \d+/,
    );
    expect(first.asked).toEqual([
      `Open "${valueUrl}" in a new tab of this conversation.`,
      `Open "${formUrl}" in a new tab of this conversation.`,
      'Focus the element at "#code" on 127.0.0.1.',
      'Type "K7-4421" into textbox "Order code" on 127.0.0.1.',
      'Click button "Send claim" on 127.0.0.1.',
    ]);

    const opened = (await browserTabs()).filter((tab) => tab.url === valueUrl || tab.url === formUrl);
    expect(opened).toHaveLength(2);
    expect(opened[0].groupId).toBeGreaterThanOrEqual(0);
    expect(opened[1].groupId).toBe(opened[0].groupId);
    expect(await groupTitle(opened[0].groupId)).toBe(request);
    const homeTab = (await browserTabs()).find((tab) => tab.url === `${pages.origin}/index.html`);
    expect(homeTab?.groupId).toBe(-1);
    const formPage = (await session.browser.pages()).find((page) => page.url() === formUrl);
    expect(await formPage?.$eval('#result', (result) => result.textContent)).toBe('Claim sent for K7-4421');

    let listed: ListedTab[] = [];
    task = [
      call('listTabs', {}),
      (last) => {
        listed = listedTabs(last);
        const own = listed.filter((tab) => tab.owner === 'agent');
        return { toolCalls: own.map((tab) => ({ name: 'closeTab', arguments: { tabId: tab.tabId } })) };
      },
      done,
    ];
    const second = await runTask(panel, 'Close the tabs you opened');
    expect(second).toEqual({ status: 'completed', asked: [] });
    expect(listed.map((tab) => [tab.url, tab.owner])).toEqual([
      [`${pages.origin}/index.html`, 'user'],
      [valueUrl, 'agent'],
      [formUrl, 'agent'],
    ]);
    const left = (await browserTabs()).map((tab) => tab.url);
    expect(left).not.toContain(valueUrl);
    expect(left).not.toContain(formUrl);
    expect(left).toContain(`${pages.origin}/index.html`);
    expect(await home.evaluate(() => localStorage.getItem('claimed-order'))).toBe('K7-4421');
  }, 120_000);

  it("asks before switching to or closing the user's own tab, and a denial leaves it as it was", async () => {
    const other = await session.browser.newPage();
    await other.goto(`${pages.origin}/form.html`);
    // The page in front stays the home page: the sign-up tab is another of the user's tabs.
    await home.bringToFront();
    await panel.bringToFront();
    let target = -1;
    let switched: ToolResult | undefined;
    task = [
      call('listTabs', {}),
      (last) => {
        target = listedTabs(last).find((tab) => tab.url.endsWith('/form.html'))?.tabId ?? -1;
        return { toolCalls: [{ name: 'switchTab', arguments: { tabId: target } }] };
      },
      (last) => {
        switched = last;
        return { toolCalls: [{ name: 'closeTab', arguments: { tabId: target } }] };
      },
      done,
    ];
    const { status, asked } = await runTask(panel, 'Look at my sign-up tab', () => 'Deny');
    expect(status).toBe('completed');
    expect(asked).toEqual([
      'Switch to your tab "Sign up" (127.0.0.1) and let Splitbrain act on it?',
      'Close your tab "Sign up" (127.0.0.1)?',
    ]);
    expect(switched).toMatchObject({ ok: false });
    expect((await browserTabs()).map((tab) => tab.url)).toContain(`${pages.origin}/form.html`);
  }, 60_000);
});
