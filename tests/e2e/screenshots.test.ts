import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import {
  configureEndpoint,
  launchExtension,
  sendMessage,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';
import { KNOWN_PRICES } from '../../lib/usage/known-prices';
import { startPageServers, type PageServers } from '../support/static-page-server';

/** Pictures of the panel's main states at side-panel size, committed so the README can show the product. */
const OUTPUT = resolve(import.meta.dirname, '../screenshots');
const VIEWPORT = { width: 400, height: 720 };

const ANSWER = [
  'Done — the particles now move at **12 m/s** and their velocity vectors are visible.',
  '',
  '| Parameter | Before | After |',
  '|---|--:|--:|',
  '| `speed` | 8 m/s | 12 m/s |',
  '| `show_vectors` | off | on |',
  '',
  'To do the same from a script:',
  '',
  '```ts',
  "await setParameters({ changes: [{ param: 'speed', value: 12 }, { param: 'show_vectors', value: true }] });",
  '```',
  '',
  'See the [target guide](https://example.org/targets) for the other parameters.',
].join('\n');

const STREAMED = [
  'Here is how the particle field works:',
  '',
  '1. Each particle has a **position** and a **velocity**.',
  '2. Every frame, the velocity is scaled by `speed` and added to the position.',
  '3. In `vortex` mode the velocity also turns around the centre.',
  '',
  '```js',
  'function step(particle, dt) {',
  '  particle.x += particle.vx * speed * dt;',
  '  particle.y += particle.vy * speed * dt;',
  '}',
  '```',
  '',
  'Higher speeds make the trails longer; vectors show the direction each particle is heading, which is handy when tuning the vortex strength by hand.',
].join('\n');

async function shoot(page: Page, name: string): Promise<void> {
  // The stage tab takes the foreground when a tool opens a target; a background page never paints.
  await page.bringToFront();
  await page.mouse.move(1, VIEWPORT.height - 1);
  await page.evaluate(() => document.fonts.ready);
  await new Promise((resolve) => setTimeout(resolve, 250));
  await page.screenshot({ path: resolve(OUTPUT, `${name}.png`) as `${string}.png` });
}

async function openSizedPanel(session: ExtensionSession, scheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await session.openPanel();
  await page.setViewport(VIEWPORT);
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
  return page;
}

describe('screenshots of the side panel', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;
  let pages: PageServers;

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    pages = await startPageServers();
    server = await startScriptedModelServer();
    session = await launchExtension(process.env.SPLITBRAIN_TEST_BUILD);
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
    await pages?.close();
  });

  it('onboarding: no endpoint yet', async () => {
    const panel = await openSizedPanel(session);
    await panel.waitForSelector('.onboarding');
    expect(await panel.$eval('.onboarding h2', (heading) => heading.textContent)).toBe(
      'Connect a model to get started',
    );
    await shoot(panel, 'onboarding');
    await panel.close();
  });

  it('empty conversation', async () => {
    await configureEndpoint(session, server.url, { label: 'OpenAI-compatible', scripted: false });
    // A web page in front, so the empty view shows its page task beside the target suggestions.
    const web = await session.browser.newPage();
    await web.goto(`${pages.origin}/form.html`);
    const panel = await openSizedPanel(session);
    await panel.waitForSelector('.empty-conversation .suggestion::-p-text(What is on this page)');
    await shoot(panel, 'empty');
    await panel.close();
    await web.close();
  });

  it('tool cards, markdown answer, light and dark', async () => {
    server.setScript({
      turns: [
        {
          steps: [
            { toolCalls: [{ name: 'getParameters', arguments: {} }] },
            {
              toolCalls: [
                {
                  name: 'setParameters',
                  arguments: {
                    changes: [
                      { param: 'speed', value: 12 },
                      { param: 'show_vectors', value: true },
                    ],
                  },
                },
              ],
            },
            { toolCalls: [{ name: 'setParameter', arguments: { param: 'spd', value: 12 } }] },
            { text: ANSWER },
          ],
        },
      ],
    });
    const panel = await openSizedPanel(session);
    await panel.click('button::-p-text(New chat)');
    await sendMessage(panel, 'Make the particles faster, 12 m/s, and show their vectors.');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    await panel.bringToFront();
    await panel.click('section.tool-card[aria-label="Tool call setParameters"] .tool-head');
    await panel.evaluate(() => {
      const list = document.querySelector('.message-list')!;
      list.scrollTop = 0;
    });
    await shoot(panel, 'tool-cards');
    await panel.evaluate(() => {
      const list = document.querySelector('.message-list')!;
      list.scrollTop = list.scrollHeight;
    });
    await shoot(panel, 'answer');
    await panel.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
    await shoot(panel, 'dark');
    await panel.evaluate(() => {
      const list = document.querySelector('.message-list')!;
      list.scrollTop = 0;
    });
    await shoot(panel, 'dark-tool-cards');
    await panel.close();
  });

  it('streaming', async () => {
    server.setScript({ turns: [{ steps: [{ text: STREAMED, delayMs: 40 }] }] });
    const panel = await openSizedPanel(session);
    await panel.click('button::-p-text(New chat)');
    await sendMessage(panel, 'How does the particle field move?');
    await panel.waitForFunction(
      () => (document.querySelector('.assistant-message')?.textContent ?? '').includes('speed * dt'),
      { polling: 20, timeout: 30_000 },
    );
    await panel.bringToFront();
    await panel.screenshot({ path: resolve(OUTPUT, 'streaming.png') as `${string}.png` });
    const sizes = await panel.evaluate(() =>
      ['.user-message', '.assistant-message p', '.panel-title', 'textarea'].map(
        (selector) =>
          `${selector}=${getComputedStyle(document.querySelector(selector)!).fontSize}/${getComputedStyle(document.querySelector(selector)!).fontFamily}`,
      ),
    );
    console.log(sizes.join('\n'));
    await panel.keyboard.press('Escape');
    expect(await waitForTurnEnd(panel, 0)).toBe('aborted');
    await panel.close();
  });

  it('error with advice and Retry', async () => {
    server.setScript({
      turns: [{ steps: [{ error: { status: 401, message: 'Incorrect API key provided: sk-test…' } }] }],
    });
    const panel = await openSizedPanel(session);
    await panel.click('button::-p-text(New chat)');
    await sendMessage(panel, 'Make the particles swirl.');
    expect(await waitForTurnEnd(panel, 0)).toBe('interrupted');
    await panel.waitForSelector('.turn-error');
    expect(await panel.$eval('.turn-error strong', (title) => title.textContent)).toBe(
      'The endpoint rejected the API key.',
    );
    await panel.waitForSelector('button::-p-text(Retry message)');
    await shoot(panel, 'error');
    await panel.close();
  });

  it('approval card and a queued addition', async () => {
    server.setScript({
      turns: [
        {
          steps: [
            { toolCalls: [{ name: 'openTarget', arguments: { targetId: 'particles' } }] },
            { toolCalls: [{ name: 'resetTarget', arguments: {} }] },
            { text: 'Reset.' },
          ],
        },
      ],
    });
    const panel = await openSizedPanel(session);
    await panel.click('button::-p-text(New chat)');
    await sendMessage(panel, 'Start over with the particles.');
    await panel.waitForSelector('section.approval-card[data-status="pending"]', { timeout: 30_000 });
    await panel.bringToFront();
    await panel.type('textarea[aria-label="Message"]', 'and keep the colours');
    await panel.keyboard.press('Enter');
    await panel.waitForFunction(() => document.querySelector('.steer-row')?.textContent?.includes('Queued'), {
      polling: 50,
      timeout: 10_000,
    });
    await shoot(panel, 'approval');
    await panel.click('section.approval-card ::-p-text(Deny)');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    await panel.close();
  });

  it('a turn with its usage line and estimated cost, stopped by a conversation budget', async () => {
    await configureEndpoint(session, server.url, { label: 'OpenAI-compatible', scripted: false, model: 'gpt-4o-mini' });
    const options = await session.browser.newPage();
    await options.goto(`chrome-extension://${session.extensionId}/options.html`);
    await options.evaluate(async (prices) => {
      const storage = (
        globalThis as unknown as { chrome: { storage: { local: { set(value: unknown): Promise<void> } } } }
      ).chrome.storage.local;
      await storage.set({ usageSettings: { prices, budgets: { conversation: { unit: 'tokens', limit: 3000 } } } });
    }, KNOWN_PRICES);
    await options.close();
    const usage = { inputTokens: 1800, outputTokens: 120, cachedInputTokens: 1024 };
    server.setScript({
      turns: [
        {
          steps: [
            { toolCalls: [{ name: 'getParameters', arguments: {} }], usage },
            { toolCalls: [{ name: 'setParameter', arguments: { param: 'speed', value: 12 } }], usage },
            { text: 'never reached', usage },
          ],
        },
      ],
    });
    const panel = await openSizedPanel(session);
    await panel.click('button::-p-text(New chat)');
    await sendMessage(panel, 'Set the speed to 12 m/s.');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    await panel.waitForSelector('[data-fact="notify/budget-reached"]');
    await panel.waitForSelector('.turn-usage .usage-cost');
    // At 400 px the conversation total wraps rather than being cut off.
    const footer = await panel.$eval('.conversation-usage', (element) => ({
      cut: element.scrollWidth > element.clientWidth + 1,
      inside: element.getBoundingClientRect().right <= document.documentElement.clientWidth,
      text: element.textContent,
    }));
    console.log(`footer total at 400 px: ${footer.text}`);
    expect(footer).toMatchObject({ cut: false, inside: true });
    await shoot(panel, 'budget');
    await panel.close();
  });

  it('conversation list', async () => {
    const panel = await openSizedPanel(session);
    await panel.click('button[aria-label="Sessions"]');
    await panel.waitForSelector('ul[aria-label="Sessions"] li');
    await shoot(panel, 'sessions');
    await panel.close();
  });
});
