import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { splitByFence } from '../../lib/page-tools/page-fence';
import { startPageServers, type PageServers } from '../support/static-page-server';
import { actOn, observe, pageTaskResponder, type PageTaskStep, type ToolResult } from '../support/page-task-model';
import {
  configureEndpoint,
  launchExtension,
  sendMessage,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';

interface Evidence {
  consoleErrors: number;
  failedRequests: number;
  dialogs: number;
  navigations: number;
  newTabs: number;
  dropped: number;
  details: string;
}

/** The tool results of this turn the model was sent back, parsed from the scripted server's last request (OpenAI chat). */
function toolResultsSent(server: ScriptedModelServer): ToolResult[] {
  const last = server.requests.at(-1)?.body as { messages?: { role: string; content?: unknown }[] } | undefined;
  const messages = last?.messages ?? [];
  return messages
    .slice(messages.findLastIndex((message) => message.role === 'user') + 1)
    .filter((message) => message.role === 'tool')
    .map((message) => JSON.parse(String(message.content)) as ToolResult);
}

/** The page data inside the result's fences (the marker is the 32 hex digits after PAGE-DATA). */
function fenced(details: string): { inside: string; outside: string } {
  const marker = /<<PAGE-DATA ([0-9a-f]{32})>>/.exec(details)?.[1] ?? '';
  const { inside, outside } = splitByFence(details, marker);
  return { inside: inside.join('\n'), outside };
}

describe('page tools: the evidence an action returns to the model, in Chromium', () => {
  let pages: PageServers;
  let server: ScriptedModelServer;
  let session: ExtensionSession;
  let panel: Page;
  let web: Page;
  let task: PageTaskStep[] = [];
  let turns = 0;

  beforeAll(async () => {
    pages = await startPageServers();
    server = await startScriptedModelServer({ respond: pageTaskResponder(() => task) });
    session = await launchExtension();
    await configureEndpoint(session, server.url);
    web = await session.browser.newPage();
    await web.goto(`${pages.origin}/failing-submit.html`);
    panel = await session.openPanel();
    await panel.waitForFunction(() => document.querySelector('.page-line-title')?.textContent === 'Save the order', {
      timeout: 10_000,
    });
    await panel.select('select.page-line-mode', 'allow');
  }, 60_000);

  afterAll(async () => {
    await session?.close();
    await server?.close();
    await pages?.close();
  });

  async function run(text: string): Promise<ToolResult[]> {
    server.clearRequests();
    await panel.bringToFront();
    await sendMessage(panel, text);
    expect(await waitForTurnEnd(panel, turns++)).toBe('completed');
    return toolResultsSent(server);
  }

  it('a submit that fails with 500 and a script that throws: the act result names the failed request and the console error', async () => {
    task = [
      observe,
      actOn('textbox', 'Item', 'type', { text: 'Lamp' }),
      actOn('button', 'Save', 'click', {
        waitFor: { condition: 'text-appears', value: 'Could not save', timeoutMs: 8000 },
      }),
      () => ({ text: 'The server failed.' }),
    ];
    const results = await run('Save an order for a lamp');
    expect(await web.$eval('#result', (result) => result.textContent)).toBe('Could not save (HTTP 500)');
    const [, typed, clicked] = results;
    expect(typed).toMatchObject({ ok: true, evidence: null });
    expect(clicked).toMatchObject({ ok: true, waited: { met: true } });
    const evidence = clicked.evidence as Evidence;
    expect(evidence).toMatchObject({ failedRequests: 1, consoleErrors: 2, dialogs: 0, newTabs: 0, dropped: 0 });
    const { inside, outside } = fenced(evidence.details);
    expect(outside.trim()).toBe('');
    // Origin and path only: the query string (the item typed) never reaches the model.
    expect(inside).toContain(`- [POST] ${pages.origin}/status/500 => 500 (xmlhttprequest)`);
    expect(inside).not.toContain('Lamp');
    expect(inside).toMatch(
      new RegExp(
        `- \\[uncaught exception\\] Uncaught Error: Saving the order failed: HTTP 500 @ ${pages.origin}/failing-submit\\.html:\\d+:\\d+`,
      ),
    );
    expect(inside).toMatch(
      new RegExp(
        `- \\[console.error\\] The order service answered 500 @ ${pages.origin}/failing-submit\\.html:\\d+:\\d+`,
      ),
    );
    console.log(`[e2e] the evidence of the failing submit, as the model got it:\n${inside}`);
  }, 60_000);

  it('an alert the page opens is in the evidence with its text, and so is a tab it opens', async () => {
    // The person answers the alert (the page is blocked until someone does).
    const answered: string[] = [];
    web.on('dialog', (dialog) => {
      answered.push(dialog.message());
      void dialog.accept();
    });
    task = [
      observe,
      actOn('button', 'Save as draft', 'click', {
        waitFor: { condition: 'text-appears', value: 'Draft saved', timeoutMs: 8000 },
      }),
      actOn('link', 'Help', 'click'),
      () => ({ text: 'Saved as a draft.' }),
    ];
    const opened = new Promise((done) => session.browser.once('targetcreated', done));
    const results = await run('Save it as a draft, then open the help');
    await opened;
    expect(answered).toEqual(['Saved as a draft: it is not sent yet.']);
    const [, draft, help] = results;
    const dialog = draft.evidence as Evidence;
    expect(dialog).toMatchObject({ dialogs: 1, consoleErrors: 0, failedRequests: 0 });
    expect(fenced(dialog.details).inside).toContain('- [alert] Saved as a draft: it is not sent yet.');
    const tab = help.evidence as Evidence;
    expect(tab).toMatchObject({ newTabs: 1 });
    expect(fenced(tab.details).inside).toMatch(new RegExp(`- tab \\d+: ${pages.origin}/index\\.html`));
  }, 60_000);
});
