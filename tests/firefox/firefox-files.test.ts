import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { patternPng } from '../support/test-files';
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

describe('files in Firefox ESR', () => {
  let server: ScriptedModelServer;
  let firefox: FirefoxSession;
  let base: string;

  beforeAll(async () => {
    server = await startScriptedModelServer({ script: { turns: [{ steps: [{ text: 'A striped picture.' }] }] } });
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

  it('attaches an image in the sidebar page and sends it to the model, re-encoded', async () => {
    const marionette = firefox.marionette;
    await openSidebarPage(marionette, `${base}/sidepanel.html`);
    await marionette.execute(
      `await browser.storage.local.set({ endpoint: { kind: 'openai-compatible', label: 'Scripted test model', baseUrl: arguments[0], model: 'scripted-model', apiKey: '', scripted: true } });
       return true;`,
      [server.url],
    );
    await marionette.send('WebDriver:Refresh');
    await until('the attach button', () =>
      marionette.execute<boolean>(
        'const button = document.querySelector(\'button[aria-label="Attach files"]\'); return Boolean(button) && !button.disabled;',
      ),
    );
    const png = patternPng(80, 60, 5);
    // The file input, as a user picking a file would fill it.
    const path = join(mkdtempSync(join(tmpdir(), 'splitbrain-ff-files-')), 'stripes.png');
    writeFileSync(path, png);
    const input = Object.values(await marionette.find('input[type="file"]'))[0];
    await marionette.send('WebDriver:ElementSendKeys', { id: input, text: path });
    await until('the chip to be ready', async () => {
      const chip = await marionette.execute<string>(
        "const chip = document.querySelector('.attachment-chip'); return chip ? chip.getAttribute('data-state') + ' ' + chip.textContent : 'none';",
      );
      if (chip.startsWith('ready')) return true;
      console.log(`[firefox] chip: ${chip}`);
      return false;
    });
    await marionette.execute(
      `const area = document.querySelector('textarea[aria-label="Message"]');
       Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set.call(area, arguments[0]);
       area.dispatchEvent(new Event('input', { bubbles: true }));
       return true;`,
      ['What is this?'],
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
    const body = JSON.stringify(server.requests.at(-1)!.body);
    const match = /"url":"data:image\/png;base64,([^"]+)"/.exec(body);
    expect(match).not.toBeNull();
    const arrived = Buffer.from(match![1], 'base64');
    expect(arrived.subarray(1, 4).toString('latin1')).toBe('PNG');
    console.log(`[firefox] image of ${png.length} bytes arrived re-encoded as ${arrived.length} bytes`);
    expect(
      await until('the thumbnail', () =>
        marionette.execute<boolean>(
          "const image = document.querySelector('.message-attachments img'); return Boolean(image && image.complete && image.naturalWidth === 80);",
        ),
      ),
    ).toBe(true);
  }, 120_000);
});
