import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { launchFirefox, type FirefoxSession, type Marionette } from './marionette';

const FIREFOX_BUILD = resolve(import.meta.dirname, '../../.output/firefox-mv2');
const WAIT_MS = 30_000;

async function until<T>(what: string, probe: () => Promise<T | undefined | false>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((done) => setTimeout(done, 200));
  }
}

async function openSidebarPage(marionette: Marionette, url: string): Promise<void> {
  await marionette.send('Marionette:SetContext', { value: 'chrome' });
  await marionette.execute(
    'gBrowser.selectedTab = gBrowser.addTab(arguments[0], { triggeringPrincipal: Services.scriptSecurityManager.getSystemPrincipal() }); return true;',
    [url],
  );
  await marionette.send('Marionette:SetContext', { value: 'content' });
  await until(`the tab at ${url}`, async () => {
    for (const handle of await marionette.send<string[]>('WebDriver:GetWindowHandles')) {
      await marionette.send('WebDriver:SwitchToWindow', { handle });
      const { value } = await marionette.send<{ value: string }>('WebDriver:GetCurrentURL');
      if (value.startsWith(url)) return true;
    }
    return false;
  });
}

// Known to fail, and skipped until it passes: in Firefox the job host frame of the background page never reports to
// the runtime, so the job is recorded `orphaned` ("its host … is gone"). Running code works in Chromium only for now.
describe.skip('jobs in Firefox ESR', () => {
  let server: ScriptedModelServer;
  let firefox: FirefoxSession;
  let base: string;

  beforeAll(async () => {
    const code = "const squares = input.numbers.map((n) => n * n);\nconsole.log('squared', squares.length);\nsquares";
    server = await startScriptedModelServer({
      script: {
        turns: [
          {
            steps: [
              { toolCalls: [{ name: 'runScript', arguments: { code, input: { numbers: [1, 2, 3] } } }] },
              { text: 'The squares are 1, 4 and 9.' },
            ],
          },
        ],
      },
    });
    firefox = await launchFirefox();
    const marionette = firefox.marionette;
    const { value: addonId } = await marionette.send<{ value: string }>('Addon:Install', {
      path: FIREFOX_BUILD,
      temporary: true,
    });
    await marionette.send('Marionette:SetContext', { value: 'chrome' });
    base = `moz-extension://${await marionette.execute<string>('return WebExtensionPolicy.getByID(arguments[0]).mozExtensionHostname;', [addonId])}`;
  }, 120_000);

  afterAll(async () => {
    await firefox?.close();
    await server?.close();
  });

  it('runs a script in the background page host and returns its result and output to the model', async () => {
    const marionette = firefox.marionette;
    await openSidebarPage(marionette, `${base}/sidepanel.html`);
    await marionette.execute(
      `await browser.storage.local.set({ endpoint: { kind: 'openai-compatible', label: 'Scripted test model', baseUrl: arguments[0], model: 'scripted-model', apiKey: '', scripted: true } });
       return true;`,
      [server.url],
    );
    await marionette.send('WebDriver:Refresh');
    await until('the composer', () =>
      marionette.execute<boolean>('return Boolean(document.querySelector(\'textarea[aria-label="Message"]\'));'),
    );
    await marionette.execute(
      `const area = document.querySelector('textarea[aria-label="Message"]');
       Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set.call(area, arguments[0]);
       area.dispatchEvent(new Event('input', { bubbles: true }));
       return true;`,
      ['Square 1, 2 and 3.'],
    );
    await until('the send button', () =>
      marionette.execute<boolean>(
        'const button = document.querySelector(\'button[type="submit"]\'); if (!button || button.disabled) return false; button.click(); return true;',
      ),
    );
    const status = await until('the turn to end', () =>
      marionette.execute<string | false>(
        "const turn = document.querySelector('article.turn'); const status = turn?.getAttribute('data-status'); return status && status !== 'running' ? status : false;",
      ),
    );
    expect(status).toBe('completed');
    const messages = (server.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] }).messages;
    const toolMessage = messages.filter((message) => message.role === 'tool').at(-1);
    const result = JSON.parse(String(toolMessage?.content)) as Record<string, unknown>;
    expect(result).toMatchObject({ ok: true, state: 'completed', result: [1, 4, 9], output: 'squared 3\n' });
    const card = await marionette.execute<string>(
      "const card = document.querySelector('section.job-card'); return card ? card.getAttribute('data-state') : 'none';",
    );
    expect(card).toBe('completed');
  }, 120_000);
});
