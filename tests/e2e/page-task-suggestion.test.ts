import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureDemoEndpoint } from '../../scripts/demo-model/configure-demo-endpoint';
import { startDemoModelServer } from '../../scripts/demo-model/start-demo-model-server';
import type { ScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { startPageServers, type PageServers } from '../support/static-page-server';
import { launchExtension, waitForTurnEnd, type ExtensionSession } from './extension-harness';

const SIGN_UP_TASK = 'What is on this page, “Sign up”?';

async function suggestions(panel: Page): Promise<string[]> {
  return panel.$$eval('.empty-conversation .suggestion', (buttons) =>
    buttons.map((button) => button.textContent ?? ''),
  );
}

/** The empty panel of the offline demo suggests a task for the web page in front, and the demo carries it out. */
describe('the empty panel suggests a task for the page in front', () => {
  let pages: PageServers;
  let server: ScriptedModelServer;
  let session: ExtensionSession;
  let web: Page;
  let panel: Page;

  beforeAll(async () => {
    pages = await startPageServers();
    server = await startDemoModelServer();
    session = await launchExtension();
    const options = await session.browser.newPage();
    await options.goto(`chrome-extension://${session.extensionId}/options.html`);
    expect(await configureDemoEndpoint(options, server.url)).toBe(true);
    await options.close();
    web = await session.browser.newPage();
    await web.goto(`${pages.origin}/form.html`);
    panel = await session.openPanel();
  }, 60_000);

  afterAll(async () => {
    await session?.close();
    await server?.close();
    await pages?.close();
  });

  it('offers the task by the page title beside the target suggestions, and the demo describes the page', async () => {
    await panel.waitForFunction(
      (task) =>
        [...document.querySelectorAll('.empty-conversation .suggestion')].some((button) => button.textContent === task),
      { timeout: 10_000 },
      SIGN_UP_TASK,
    );
    expect(await suggestions(panel)).toEqual([
      'Open the particle field and make the particles faster',
      'Show the velocity vectors and switch to vortex mode',
      'Which targets can you control?',
      SIGN_UP_TASK,
    ]);
    expect(await panel.$('.empty-conversation .page-suggestion-none')).toBeNull();

    await panel.click(`.empty-conversation .suggestion::-p-text(${SIGN_UP_TASK})`);
    expect(await panel.$eval('textarea[aria-label="Message"]', (box) => (box as HTMLTextAreaElement).value)).toBe(
      SIGN_UP_TASK,
    );
    await panel.click('button[type="submit"]');
    expect(await waitForTurnEnd(panel, 0, 60_000)).toBe('completed');
    const reply = await panel.$$eval('.assistant-message', (items) => items.at(-1)?.textContent ?? '');
    expect(reply).toContain('On "Sign up" I see headings "Sign up"; buttons "Submit"');
  }, 90_000);

  it('says so and suggests no page task when no web page is in front', async () => {
    await panel.click('button::-p-text(New chat)');
    await panel.waitForSelector('.empty-conversation');
    await web.goto('about:blank');
    await panel.bringToFront();
    const note = await panel.waitForSelector('.empty-conversation .page-suggestion-none', { timeout: 10_000 });
    expect(await note?.evaluate((element) => element.textContent)).toBe(
      'Page tasks need a web page in front. No web page is open in this window.',
    );
    expect(await suggestions(panel)).toEqual([
      'Open the particle field and make the particles faster',
      'Show the velocity vectors and switch to vortex mode',
      'Which targets can you control?',
    ]);
  }, 60_000);
});
