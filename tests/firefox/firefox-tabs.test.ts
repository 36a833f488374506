import { describe, expect, it } from 'vitest';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { startPageServers } from '../support/static-page-server';
import { actOn, observationIn, pageTaskResponder, type PageTaskStep } from '../support/page-task-model';
import { firefoxSuite } from './firefox-suite';
import type { Marionette } from './marionette';
import {
  answerApprovals,
  openPageTab,
  openPanelBesidePage,
  sendFromComposer,
  switchToTab,
  turnCount,
  until,
} from './sidebar-page';

const call =
  (name: string, args: Record<string, unknown>): PageTaskStep =>
  () => ({ toolCalls: [{ name, arguments: args }] });

/** Every tab of the window, by address, with the label of its tab group (null when in none), from the chrome context. */
async function windowTabs(marionette: Marionette): Promise<{ url: string; group: string | null }[]> {
  await marionette.send('Marionette:SetContext', { value: 'chrome' });
  return marionette.execute(
    'return gBrowser.tabs.map((tab) => ({ url: tab.linkedBrowser.currentURI.spec, group: tab.group ? tab.group.label : null }));',
  );
}

async function lastTurnStatus(marionette: Marionette): Promise<string> {
  return until('the turn to end', () =>
    marionette.execute<string | false>(
      "const status = [...document.querySelectorAll('article.turn')].at(-1)?.getAttribute('data-status'); return status && status !== 'running' ? status : false;",
    ),
  );
}

describe('the tabs of a conversation in Firefox ESR', () => {
  const suite = firefoxSuite({
    pages: () => startPageServers(),
    server: () => startScriptedModelServer({ respond: pageTaskResponder(() => task) }),
  });
  let task: PageTaskStep[] = [];

  it('reads a value in a tab it opens, fills a form in another, submits, and closes the tabs it opened', async () => {
    const { marionette, base, pages, server } = suite;
    const homeUrl = `${pages.origin}/index.html`;
    const valueUrl = `${pages.origin}/tab-value.html`;
    const formUrl = `${pages.origin}/tab-form.html`;
    await openPageTab(marionette, homeUrl);
    const panelUrl = await openPanelBesidePage(marionette, base, server.url, 'Test pages');

    let code = '';
    task = [
      call('openTab', { url: valueUrl }),
      (last) => {
        code = /\b[A-Z]\d-\d{4}\b/.exec(String(observationIn(last).snapshot))?.[0] ?? '';
        return { toolCalls: [{ name: 'openTab', arguments: { url: formUrl } }] };
      },
      (last) => actOn('textbox', 'Order code', 'type', { text: code })(last),
      actOn('button', 'Send claim', 'click'),
      () => ({ text: 'Claim sent.' }),
    ];
    const request = 'Claim a refund for the order on the status page';
    let turnsBefore = await turnCount(marionette);
    await sendFromComposer(marionette, request);
    const asked = await answerApprovals(marionette, panelUrl, turnsBefore);
    console.log(`[firefox] approval cards: ${JSON.stringify(asked)}`);
    expect(await lastTurnStatus(marionette)).toBe('completed');
    expect(code).toBe('K7-4421');
    expect(asked).toHaveLength(4);
    expect(asked[0]).toMatch(/^Let Splitbrain read and act on 127\.0\.0\.1\? Then: Open "/);

    const opened = (await windowTabs(marionette)).filter((tab) => tab.url === valueUrl || tab.url === formUrl);
    console.log(`[firefox] the opened tabs: ${JSON.stringify(opened)}`);
    expect(opened).toEqual([
      { url: valueUrl, group: request },
      { url: formUrl, group: request },
    ]);
    expect((await windowTabs(marionette)).find((tab) => tab.url === homeUrl)?.group).toBeNull();
    await switchToTab(marionette, formUrl);
    expect(await marionette.execute<string>("return document.getElementById('result').textContent;")).toBe(
      'Claim sent for K7-4421',
    );

    await switchToTab(marionette, panelUrl);
    task = [
      call('listTabs', {}),
      (last) => {
        const own = (last?.tabs as { tabId: number; owner: string }[]).filter((tab) => tab.owner === 'agent');
        return { toolCalls: own.map((tab) => ({ name: 'closeTab', arguments: { tabId: tab.tabId } })) };
      },
      () => ({ text: 'Closed.' }),
    ];
    turnsBefore = await turnCount(marionette);
    await sendFromComposer(marionette, 'Close the tabs you opened');
    expect(await answerApprovals(marionette, panelUrl, turnsBefore)).toEqual([]);
    expect(await lastTurnStatus(marionette)).toBe('completed');
    const left = (await windowTabs(marionette)).map((tab) => tab.url);
    expect(left).not.toContain(valueUrl);
    expect(left).not.toContain(formUrl);
    expect(left).toContain(homeUrl);
    await switchToTab(marionette, homeUrl);
    expect(await marionette.execute<string>("return localStorage.getItem('claimed-order');")).toBe('K7-4421');
  }, 180_000);
});
