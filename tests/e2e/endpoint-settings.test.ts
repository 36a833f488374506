import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import {
  configureEndpoint,
  currentSessionId,
  launchExtension,
  sendMessage,
  storedRowsText,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';

const KEY = 'sk-ant-e2e-secret-4242';

async function fill(page: Page, label: string, value: string): Promise<void> {
  const selector = `[aria-label="${label}"]`;
  await page.$eval(selector, (element) => ((element as HTMLInputElement).value = ''));
  await page.type(selector, value);
}

describe('endpoint profiles on the options page', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;

  beforeAll(async () => {
    server = await startScriptedModelServer();
    session = await launchExtension();
    // The single-endpoint key of earlier versions, as `npm start` wrote it: it must show up as a profile.
    await configureEndpoint(session, server.url);
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it('adds an Anthropic profile, tests the connection, saves it as active, and the panel talks to it with the key only in requests', async () => {
    const options = await session.browser.newPage();
    await options.goto(`chrome-extension://${session.extensionId}/options.html`);
    await options.waitForSelector('ul[aria-label="Saved endpoints"]');
    expect(await options.$$eval('.profile-row strong', (rows) => rows.map((row) => row.textContent))).toEqual([
      'Scripted test model',
    ]);

    await options.click('button::-p-text(Add endpoint)');
    await options.select('select[aria-label="Kind"]', 'anthropic');
    expect(await options.$eval('[aria-label="Base URL"]', (input) => (input as HTMLInputElement).value)).toBe(
      'https://api.anthropic.com/v1',
    );
    await fill(options, 'Base URL', `${server.origin}/v1`);
    await fill(options, 'Model', 'scripted-model');
    await fill(options, 'API key', KEY);
    await fill(options, 'Name', 'Claude (scripted)');

    server.setScript({ turns: [{ steps: [{ text: 'OK' }] }] });
    await options.click('button::-p-text(Test connection)');
    await options.waitForSelector('ul[aria-label="Connection test results"]', { timeout: 20_000 });
    const checks = await options.$$eval('.connection-check', (items) =>
      items.map((item) => `${item.getAttribute('data-ok')} ${item.textContent}`),
    );
    expect(checks[0]).toBe('true ✓ Model list: Listed 1 model; "scripted-model" is among them.');
    expect(checks[1]).toMatch(/^true ✓ Reply: "scripted-model" answered "OK…" in \d+ ms\.$/);
    expect(
      server.requests.every(
        (request) =>
          request.headers['x-api-key'] === KEY &&
          request.headers['anthropic-dangerous-direct-browser-access'] === 'true',
      ),
    ).toBe(true);

    await options.click('button[type="submit"]');
    await options.waitForFunction(() => document.querySelector('.endpoint-editor .status')?.textContent === 'Saved.', {
      timeout: 5_000,
    });
    const rows = await options.$$eval('.profile-row', (items) =>
      items.map((item) => `${item.querySelector('strong')?.textContent}:${item.getAttribute('data-active')}`),
    );
    expect(rows).toEqual(['Scripted test model:false', 'Claude (scripted):true']);

    server.clearRequests();
    server.setScript({ turns: [{ steps: [{ text: 'Hello from the messages API.' }] }] });
    const panel = await session.openPanel();
    expect(await panel.$eval('.endpoint-label', (label) => label.textContent)).toContain(
      'scripted-model · Claude (scripted)',
    );
    await sendMessage(panel, 'Say hello.');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    expect(server.requests.map((request) => request.path)).toEqual(['/v1/messages']);
    expect(server.requests[0].headers['x-api-key']).toBe(KEY);
    expect(await storedRowsText(panel, await currentSessionId(panel))).not.toContain(KEY);

    await options.bringToFront();
    await options.click('input[aria-label="Use Scripted test model"]');
    await options.waitForFunction(
      () => document.querySelector('.profile-row[data-active="true"] strong')?.textContent === 'Scripted test model',
      { timeout: 5_000 },
    );
    await panel.bringToFront();
    await panel.waitForFunction(
      () => document.querySelector('.endpoint-label')?.textContent?.includes('Scripted test model'),
      { timeout: 10_000 },
    );
    await options.bringToFront();
    await options.click('button[aria-label="Delete Claude (scripted)"]');
    await options.waitForFunction(() => document.querySelectorAll('.profile-row').length === 1, { timeout: 5_000 });
    const stored = await options.evaluate(() =>
      (
        globalThis as unknown as {
          chrome: { storage: { local: { get(key: null): Promise<Record<string, unknown>> } } };
        }
      ).chrome.storage.local.get(null),
    );
    expect(JSON.stringify(stored)).not.toContain(KEY);
    expect(stored.endpoint).toBeUndefined();
    await panel.close();
    await options.close();
  });

  it('refuses to save what cannot work and says which field is wrong', async () => {
    const options = await session.browser.newPage();
    await options.goto(`chrome-extension://${session.extensionId}/options.html`);
    await options.waitForSelector('[aria-label="Base URL"]');
    await options.click('button::-p-text(Add endpoint)');
    await fill(options, 'Base URL', 'ftp://example.org/v1');
    await fill(options, 'Model', 'llama3.1');
    await options.click('button[type="submit"]');
    await options.waitForFunction(
      () => (document.querySelector('.endpoint-editor .status')?.textContent ?? '').startsWith('Not saved: Base URL'),
      { timeout: 5_000 },
    );
    expect(await options.$$eval('.profile-row', (items) => items.length)).toBe(1);
    await options.close();
  });
});
