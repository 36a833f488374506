import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedModelServer, type ScriptedModelServer } from '../model-server/scripted-model-server';
import { launchFirefox, type FirefoxSession, type Marionette } from './marionette';

const FIREFOX_BUILD = resolve(import.meta.dirname, '../../.output/firefox-mv2');
const WAIT_MS = 30_000;

interface ChatRequestBody {
  messages: { role: string; content?: unknown }[];
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((done) => setTimeout(done, 200));
  }
}

/** Switches to the tab whose address starts with `prefix` (content context). */
async function switchToTab(marionette: Marionette, prefix: string): Promise<void> {
  await marionette.send('Marionette:SetContext', { value: 'content' });
  await until(`a tab at ${prefix}`, async () => {
    for (const handle of await marionette.send<string[]>('WebDriver:GetWindowHandles')) {
      await marionette.send('WebDriver:SwitchToWindow', { handle });
      const { value } = await marionette.send<{ value: string }>('WebDriver:GetCurrentURL');
      if (value.startsWith(prefix)) return true;
    }
    return false;
  });
}

/** Opens an extension page in a new tab: only the chrome context may load moz-extension:// addresses. */
async function openExtensionTab(marionette: Marionette, url: string): Promise<void> {
  await marionette.send('Marionette:SetContext', { value: 'chrome' });
  await marionette.execute('gBrowser.selectedTab = gBrowser.addTab(arguments[0], { triggeringPrincipal: Services.scriptSecurityManager.getSystemPrincipal() }); return true;', [url]);
  await switchToTab(marionette, url);
}

describe('the split-brain loop in Firefox ESR', () => {
  let server: ScriptedModelServer;
  let firefox: FirefoxSession;
  let base: string;

  beforeAll(async () => {
    server = await startScriptedModelServer({
      script: {
        turns: [
          {
            steps: [
              { toolCalls: [{ name: 'openTarget', arguments: { targetId: 'particles' } }] },
              { toolCalls: [{ name: 'setParameter', arguments: { param: 'speed', value: 12 } }] },
              { text: 'The particles now move at 12 m/s.' },
            ],
          },
        ],
      },
    });
    firefox = await launchFirefox();
    const marionette = firefox.marionette;
    const { value: addonId } = await marionette.send<{ value: string }>('Addon:Install', { path: FIREFOX_BUILD, temporary: true });
    await marionette.send('Marionette:SetContext', { value: 'chrome' });
    base = `moz-extension://${await marionette.execute<string>('return WebExtensionPolicy.getByID(arguments[0]).mozExtensionHostname;', [addonId])}`;
    // What the user grants when saving the endpoint (a permission prompt headless Firefox cannot show).
    await marionette.execute(
      `const { ExtensionPermissions } = ChromeUtils.importESModule('resource://gre/modules/ExtensionPermissions.sys.mjs');
       const policy = WebExtensionPolicy.getByID(arguments[0]);
       await ExtensionPermissions.add(arguments[0], { permissions: [], origins: ['http://127.0.0.1/*'] }, policy.extension);
       return true;`,
      [addonId],
    );
  }, 120_000);

  afterAll(async () => {
    await firefox?.close();
    await server?.close();
  });

  it('runs a turn from the sidebar page: the model opens the particle field, sets its speed inside the sandboxed frame and gets the result back', async () => {
    const marionette = firefox.marionette;
    await openExtensionTab(marionette, `${base}/sidepanel.html`);
    await marionette.execute(
      `await browser.storage.local.set({ endpoint: { kind: 'openai-compatible', label: 'Scripted test model', baseUrl: arguments[0], model: 'scripted-model', apiKey: '', scripted: true } });
       return true;`,
      [server.url],
    );
    await marionette.send('WebDriver:Refresh');
    await until('the composer', () => marionette.execute<boolean>('return Boolean(document.querySelector(\'textarea[aria-label="Message"]\')) && !document.querySelector(\'textarea[aria-label="Message"]\').disabled;'));
    await marionette.execute(
      `const area = document.querySelector('textarea[aria-label="Message"]');
       Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set.call(area, arguments[0]);
       area.dispatchEvent(new Event('input', { bubbles: true }));
       return true;`,
      ['Make the particles faster, 12 m/s.'],
    );
    await until('the send button', () => marionette.execute<boolean>('const button = document.querySelector(\'button[type="submit"]\'); if (!button || button.disabled) return false; button.click(); return true;'));
    const status = await until('the turn to end', () => marionette.execute<string | false>("const turn = document.querySelector('article.turn'); const status = turn?.getAttribute('data-status'); return status && status !== 'running' ? status : false;"));
    // textContent: the stage tab took the focus, and a background tab skips rendering `content-visibility: auto` text.
    const panelText = await marionette.execute<string>("return document.querySelector('article.turn')?.textContent ?? '';");
    expect(status, panelText).toBe('completed');
    expect(panelText).toContain('The particles now move at 12 m/s.');
    const cards = await marionette.execute<string[]>("return [...document.querySelectorAll('section.tool-card')].map((card) => card.getAttribute('aria-label') + ':' + card.getAttribute('data-status'));");
    expect(cards).toEqual(['Tool call openTarget:done', 'Tool call setParameter:done']);

    // The model was sent the applied value as the tool's result.
    const lastRequest = JSON.stringify((server.requests.at(-1)!.body as ChatRequestBody).messages.filter((message) => message.role === 'tool'));
    expect(lastRequest).toContain('\\"speed\\":12');

    // The value inside the sandboxed target frame, read in the stage tab the runtime opened.
    await switchToTab(marionette, `${base}/stage.html`);
    const sandbox = await marionette.execute<string | null>("return document.querySelector('iframe')?.getAttribute('sandbox') ?? null;");
    expect(sandbox).toBe('allow-scripts');
    await marionette.send('WebDriver:SwitchToFrame', { id: 0 });
    const inside = await until('the target to report speed 12', () =>
      marionette.execute<{ speed: number; applyCount: number } | false>('const bridge = window.SplitbrainBridge; const state = bridge?.currentState(); return state?.speed === 12 ? { speed: state.speed, applyCount: bridge.debug.applyCount } : false;'),
    );
    expect(inside.speed).toBe(12);
    expect(inside.applyCount).toBeGreaterThanOrEqual(1);
    // The frame is sandboxed without allow-same-origin: its origin is opaque.
    expect(await marionette.execute<string>('return window.origin;')).toBe('null');
  }, 120_000);
});
