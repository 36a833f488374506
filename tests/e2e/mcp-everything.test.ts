import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { startEverythingServer, type EverythingServer } from '../support/everything-server';
import {
  configureEndpoint,
  currentSessionId,
  launchExtension,
  sendMessage,
  storedRowsText,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';

async function fill(page: Page, label: string, value: string): Promise<void> {
  const selector = `[aria-label="${label}"]`;
  await page.$eval(selector, (element) => ((element as HTMLInputElement).value = ''));
  await page.type(selector, value);
}

describe('the reference MCP server (server-everything), in Chromium', () => {
  let model: ScriptedModelServer;
  let everything: EverythingServer;
  let session: ExtensionSession;

  beforeAll(async () => {
    model = await startScriptedModelServer();
    everything = await startEverythingServer();
    session = await launchExtension();
    await configureEndpoint(session, model.url);
  });

  afterAll(async () => {
    await session?.close();
    await model?.close();
    await everything?.close();
  });

  it('is tested and saved in Settings, and the model calls its tools: a sum, and an image kept as a BlobRef', async () => {
    const options = await session.browser.newPage();
    await options.goto(`chrome-extension://${session.extensionId}/options.html`);
    await options.waitForSelector('section.mcp-servers');
    await fill(options, 'Server name', 'Everything');
    await fill(options, 'Server URL', everything.url);
    await options.click('.mcp-server-editor button::-p-text(Test connection)');
    await options.waitForSelector('.mcp-server-editor ul[aria-label="Connection test results"]', { timeout: 20_000 });
    const report = await options.$$eval('.mcp-server-editor .connection-check', (items) =>
      items.map((item) => item.textContent ?? ''),
    );
    expect(report[0]).toMatch(/^✓ Server: mcp-servers\/everything \S+$/);
    expect(report[1]).toContain('get-sum (read-only)');
    expect(report[1]).toContain('get-tiny-image (read-only)');
    expect(report[2]).toMatch(/^Resources \(\d+\): demo:\/\//);
    expect(report[3]).toContain('simple-prompt');
    await options.click('.mcp-server-editor button[type="submit"]');
    await options.waitForFunction(
      () => document.querySelector('.mcp-server-editor .status')?.textContent === 'Saved Everything.',
      { timeout: 5_000 },
    );
    await options.close();

    model.setScript({
      turns: [
        {
          steps: [
            { toolCalls: [{ name: 'mcp_everything_get-sum', arguments: { a: 2, b: 3 }, id: 'sum-1' }] },
            { toolCalls: [{ name: 'mcp_everything_get-tiny-image', arguments: {}, id: 'image-1' }] },
            { text: 'Five, and a logo.' },
          ],
        },
      ],
    });
    const panel = await session.openPanel();
    await sendMessage(panel, 'Add 2 and 3, then show me the tiny image.');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    const first = JSON.stringify(model.requests[0].body);
    expect(first).toContain('mcp_everything_get-sum');
    expect(first).toContain('mcp_everything_echo');
    expect(JSON.stringify(model.requests[1].body)).toContain('The sum of 2 and 3 is 5.');
    expect(JSON.stringify(model.requests.at(-1)!.body)).toContain('The image above is the MCP logo.');
    expect(
      await panel.$$eval('section.tool-card', (cards) => cards.map((card) => card.getAttribute('data-status'))),
    ).toEqual(['done', 'done']);
    const log = await storedRowsText(panel, await currentSessionId(panel));
    expect(log).toMatch(/"images":\[\{"blobId":"[0-9a-f]{64}"[^}]*"mime":"image\/png"/);
    await panel.close();
  });

  it('is reached over the legacy HTTP+SSE transport too', async () => {
    const legacy = await startEverythingServer('sse');
    try {
      const options = await session.browser.newPage();
      await options.goto(`chrome-extension://${session.extensionId}/options.html`);
      await options.waitForSelector('section.mcp-servers');
      await fill(options, 'Server name', 'Everything SSE');
      await fill(options, 'Server URL', legacy.url);
      await options.select('select[aria-label="Transport"]', 'sse');
      await options.click('.mcp-server-editor button::-p-text(Test connection)');
      await options.waitForSelector('.mcp-server-editor ul[aria-label="Connection test results"]', { timeout: 20_000 });
      const report = await options.$$eval('.mcp-server-editor .connection-check', (items) =>
        items.map((item) => item.textContent ?? ''),
      );
      expect(report[0]).toMatch(/^✓ Server: mcp-servers\/everything \S+$/);
      expect(report[1]).toContain('get-sum (read-only)');
      await options.close();
    } finally {
      await legacy.close();
    }
  });
});
