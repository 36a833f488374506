import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  configureProfile,
  launchExtension,
  sendMessage,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';

type Availability = 'unavailable' | 'downloadable' | 'downloading' | 'available';

/**
 * A stand-in for Chrome's Prompt API (the real model cannot run here), installed before the page's own
 * scripts. It answers the first prompt of a turn with a fenced tool call, as @browser-ai/core's tool-call
 * emulation asks the model to, and the prompt that carries the tool result with one line of text.
 */
function installFakeLanguageModel(initial: Availability): void {
  const fake = window as unknown as {
    fakePrompt: { availability: string; systemPrompts: string[]; prompts: unknown[] };
    LanguageModel: unknown;
  };
  fake.fakePrompt = { availability: initial, systemPrompts: [], prompts: [] };
  const reply = (messages: unknown): string =>
    JSON.stringify(messages).includes('tool_result')
      ? 'Speed is now 20 m/s, on this device.'
      : 'Setting it.\n```tool_call\n{"name": "setParameter", "arguments": {"param": "speed", "value": 20}}\n```';
  fake.LanguageModel = {
    availability: async () => fake.fakePrompt.availability,
    create: async (options: { initialPrompts?: { content: string }[]; monitor?(target: EventTarget): void }) => {
      const monitor = new EventTarget();
      options.monitor?.(monitor);
      if (fake.fakePrompt.availability !== 'available') {
        monitor.dispatchEvent(Object.assign(new Event('downloadprogress'), { loaded: 0.5 }));
        monitor.dispatchEvent(Object.assign(new Event('downloadprogress'), { loaded: 1 }));
        fake.fakePrompt.availability = 'available';
      }
      fake.fakePrompt.systemPrompts.push(options.initialPrompts?.[0]?.content ?? '');
      return {
        contextUsage: 0,
        contextWindow: 4096,
        addEventListener() {},
        destroy() {},
        prompt: async (messages: unknown) => reply(messages),
        promptStreaming(messages: unknown) {
          fake.fakePrompt.prompts.push(messages);
          const pieces = reply(messages).match(/[\s\S]{1,7}/g) ?? [];
          return new ReadableStream<string>({
            start(controller) {
              for (const piece of pieces) controller.enqueue(piece);
              controller.close();
            },
          });
        },
      };
    },
  };
}

function removeLanguageModel(): void {
  delete (window as unknown as { LanguageModel?: unknown }).LanguageModel;
}

describe('the on-device kind (Chrome Prompt API) against a fake LanguageModel', () => {
  let session: ExtensionSession;
  const base = () => `chrome-extension://${session.extensionId}`;

  beforeAll(async () => {
    session = await launchExtension();
  });
  afterAll(async () => {
    await session?.close();
  });

  /** `absent`: this Chromium has the API, so the test removes it, as in a browser without one. */
  async function optionsPage(availability: Availability | 'absent'): Promise<Page> {
    const page = await session.browser.newPage();
    if (availability === 'absent') await page.evaluateOnNewDocument(removeLanguageModel);
    else await page.evaluateOnNewDocument(installFakeLanguageModel, availability);
    await page.goto(`${base()}/options.html`);
    await page.waitForSelector('select[aria-label="Kind"]');
    return page;
  }

  const kinds = (page: Page) =>
    page.$$eval('select[aria-label="Kind"] option', (options) => options.map((option) => option.getAttribute('value')));
  const status = async (page: Page) => {
    await page.waitForSelector('.on-device-status');
    return page.$eval('.on-device-status', (line) => line.textContent ?? '');
  };

  it('is not offered, with the reason in one line, when the API is absent or the device cannot run it', async () => {
    const absent = await optionsPage('absent');
    expect(await kinds(absent)).not.toContain('chrome-on-device');
    expect(await status(absent)).toContain('Not available in this browser');
    await absent.close();

    const unavailable = await optionsPage('unavailable');
    expect(await kinds(unavailable)).not.toContain('chrome-on-device');
    expect(await status(unavailable)).toContain('Not available on this device');
    await unavailable.close();
  });

  it('shows the download state and downloads on request', async () => {
    const page = await optionsPage('downloadable');
    expect(await kinds(page)).toContain('chrome-on-device');
    await page.select('select[aria-label="Kind"]', 'chrome-on-device');
    expect(await status(page)).toContain('Not downloaded yet');
    expect(await page.$('[aria-label="Base URL"]')).toBeNull();
    expect(await page.$('[aria-label="API key"]')).toBeNull();
    expect(await page.$eval('form[aria-label="Endpoint"]', (form) => form.textContent)).toContain(
      'nothing of the conversation leaves the machine',
    );
    await page.click('button::-p-text(Download the model)');
    await page.waitForFunction(() => document.querySelector('.on-device-status')?.textContent?.includes('Ready'));
    await page.close();
  });

  it('runs a turn with a tool call through the provider tool-call emulation, the value read back in the target', async () => {
    await configureProfile(session, { kind: 'chrome-on-device', label: 'On this device (Chrome)', scripted: false });
    const panel = await session.browser.newPage();
    await panel.evaluateOnNewDocument(installFakeLanguageModel, 'available' as Availability);
    await panel.goto(`${base()}/sidepanel.html`);
    await panel.waitForSelector('textarea[aria-label="Message"]');
    await sendMessage(panel, 'Make the particles faster.');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    const fake = await panel.evaluate(
      () => (window as unknown as { fakePrompt: { systemPrompts: string[]; prompts: unknown[] } }).fakePrompt,
    );
    // The tools went to the model in the system prompt, and the tool's result came back in a tool_result fence.
    expect(fake.systemPrompts.some((prompt) => prompt.includes('setParameter'))).toBe(true);
    expect(fake.prompts.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(fake.prompts.at(-1))).toContain('tool_result');
    await panel.bringToFront();
    expect(await panel.$eval('article.turn', (turn) => turn.textContent ?? '')).toContain(
      'Speed is now 20 m/s, on this device.',
    );
    const frame = await session.targetFrame('particles');
    const speed = await frame.evaluate(
      () =>
        (
          window as unknown as { SplitbrainBridge: { currentState(): Record<string, unknown> } }
        ).SplitbrainBridge.currentState().speed,
    );
    expect(speed).toBe(20);
    await panel.close();
  });
});
