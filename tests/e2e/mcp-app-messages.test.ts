import type { Frame, Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { startMcpHttpServer } from '../support/mcp-http-server';
import { COUNTER_APP_URI, OTHER_SERVER_NOTE_URI } from '../support/mcp-test-apps';
import { imagesIn, pngPixels } from '../support/model-request-images';
import { pngHeader } from '../support/png-header';
import { patternPng } from '../support/test-files';
import {
  clickInCard,
  pendingApproval,
  currentSessionId,
  sendMessage,
  storeMcpServers,
  storedRowsText,
  waitForTurnEnd,
} from './extension-harness';
import { appFrame, textOf, turnEnd } from './mcp-app-harness';
import { extensionSuite } from './extension-suite';

interface AppAnswer {
  result?: { contents?: { uri: string; text?: string }[]; resources?: { uri: string }[] };
  error?: { code: number; message: string };
}

/** Sends a request from the app as the app would, without waiting: its answer is read with `answerOf`. */
function appRequest(frame: Frame, key: string, method: string, params: unknown): Promise<void> {
  return frame.evaluate(
    (requestKey, requestMethod, requestParams) => {
      const app = window as unknown as { appRequest(key: string, method: string, params: unknown): Promise<unknown> };
      void app.appRequest(requestKey, requestMethod, requestParams);
    },
    key,
    method,
    params,
  );
}

async function answerOf(frame: Frame, key: string): Promise<AppAnswer> {
  const handle = await frame.waitForFunction(
    (requestKey) => (window as unknown as { answers: Record<string, unknown> }).answers[requestKey] ?? false,
    { polling: 100, timeout: 30_000 },
    key,
  );
  return (await handle.jsonValue()) as AppAnswer;
}

/** An image block the app sends (`window.sendImage` of the counter app), without waiting for the answer. */
interface AppImage {
  text?: string;
  data?: string;
  /** Characters of base64 the app makes itself, for an image too large to send through the test's connection. */
  filler?: number;
  mimeType: string;
}

function sendImage(frame: Frame, key: string, method: string, image: AppImage): Promise<void> {
  return frame.evaluate(
    (requestKey, requestMethod, block) => {
      const app = window as unknown as { sendImage(key: string, method: string, image: AppImage): Promise<unknown> };
      void app.sendImage(requestKey, requestMethod, block);
    },
    key,
    method,
    image,
  );
}

/** How many images the blob store holds, read from the extension's database. */
function storedBlobCount(panel: Page): Promise<number> {
  return panel.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const request = indexedDB.open('splitbrain');
        request.onerror = () => reject(new Error(String(request.error)));
        request.onsuccess = () => {
          const counting = request.result.transaction('blobs').objectStore('blobs').count();
          counting.onsuccess = () => resolve(counting.result);
          counting.onerror = () => reject(new Error(String(counting.error)));
        };
      }),
  );
}

/** Waits until the image in `selector` has loaded with `width` pixels across. */
async function shownImage(panel: Page, selector: string, width: number): Promise<void> {
  await panel.waitForFunction(
    (query, expected) =>
      [...document.querySelectorAll<HTMLImageElement>(query)].some(
        (image) => image.complete && image.naturalWidth === expected,
      ),
    { polling: 100, timeout: 15_000 },
    selector,
    width,
  );
}

/** How many images of the model's last request show the pixels of `png`. */
function sentCopies(body: unknown, png: Buffer): number {
  const wanted = pngPixels(png);
  return imagesIn(body).filter((image) => image.mime === 'image/png' && pngPixels(image.bytes) === wanted).length;
}

async function pendingSummary(panel: Page): Promise<{ card: string; summary: string }> {
  const card = await pendingApproval(panel);
  const summary = await panel.$eval(`section[data-request-id="${card}"] .request-summary`, (element) =>
    (element.textContent ?? '').trim(),
  );
  return { card, summary };
}

describe('MCP Apps ask the host: messages, links, resources, and calls after a worker restart', () => {
  const suite = extensionSuite(
    { model: () => startScriptedModelServer(), mcp: () => startMcpHttpServer() },
    ({ session, mcp }) =>
      storeMcpServers(session, [
        { id: 'apps', name: 'Apps', url: `${mcp.origin}/apps` },
        { id: 'other', name: 'Other', url: `${mcp.origin}/other` },
      ]),
  );
  let panel: Page;
  let frame: Frame;

  beforeAll(async () => {
    suite.model.setScript({
      turns: [
        {
          steps: [
            { toolCalls: [{ name: 'mcp_apps_showCounter', arguments: { start: 5 }, id: 'show-1' }] },
            { text: 'The counter is shown.' },
          ],
        },
      ],
    });
    panel = await suite.session.openPanel();
    await sendMessage(panel, 'Show me the counter at 5.');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    frame = await appFrame(suite.session, 'Counter');
    await frame.waitForFunction(() => document.getElementById('count')?.textContent === '5', { timeout: 15_000 });
  });

  it('tells the app what this host serves', async () => {
    const capabilities = await frame.evaluate(
      () =>
        (window as unknown as { appLog: { result?: { hostCapabilities?: Record<string, unknown> } }[] }).appLog.find(
          (message) => message.result?.hostCapabilities,
        )?.result?.hostCapabilities,
    );
    expect(capabilities).toEqual({
      serverTools: {},
      serverResources: {},
      openLinks: {},
      message: { text: {}, image: {} },
      updateModelContext: { text: {}, image: {}, structuredContent: {} },
      downloadFile: {},
      logging: {},
      sandbox: { permissions: {}, csp: { connectDomains: [] } },
    });
  });

  it('adds the app’s message to the conversation only once the user allows it, and starts no model turn', async () => {
    const { model } = suite;
    const modelRequests = model.requests.length;
    await appRequest(frame, 'message-1', 'ui/message', {
      role: 'user',
      content: [{ type: 'text', text: 'Please count to fifty.' }],
    });
    const { card, summary } = await pendingSummary(panel);
    expect(summary).toBe('Add the MCP App “showCounter”’s message to this conversation: “Please count to fifty.”');
    await clickInCard(panel, card, 'Allow');
    expect(await answerOf(frame, 'message-1')).toEqual({ jsonrpc: '2.0', id: expect.any(Number), result: {} });
    const rows = await storedRowsText(panel, await currentSessionId(panel));
    expect(rows).toContain('The MCP App “showCounter” asks to add a message to the conversation.');
    expect(rows).toContain('The user added the MCP App “showCounter”’s message: Please count to fifty.');

    expect(rows).toContain('app_send_message');
    // The model was not asked anything: the message waits in the conversation for the user's next turn.
    expect(model.requests.length).toBe(modelRequests);

    await appRequest(frame, 'message-2', 'ui/message', { role: 'user', content: { type: 'text', text: 'Again!' } });
    await clickInCard(panel, (await pendingSummary(panel)).card, 'Deny');
    expect((await answerOf(frame, 'message-2')).error).toEqual({
      code: -32000,
      message: 'Message sending denied by the user.',
    });
    expect(model.requests.length).toBe(modelRequests);

    // The user's next message takes the allowed one to the model; the denied one never reaches it.
    model.setScript({ turns: [{ steps: [{ text: 'Counting.' }] }] });
    const turns = await panel.$$eval('article.turn', (items) => items.length);
    // Headless Chromium gives a tab behind the stage no clicks.
    await panel.bringToFront();
    await sendMessage(panel, 'Go on.');
    expect(await waitForTurnEnd(panel, turns)).toBe('completed');
    const sent = JSON.stringify(model.requests.at(-1)!.body);
    expect(sent).toContain('Please count to fifty.');
    expect(sent).not.toContain('Again!');
  });

  it('shows the app’s image on its message’s card, and after Allow sends the model its pixels with the next message', async () => {
    const { model } = suite;
    const drawing = patternPng(40, 30, 5);
    const modelRequests = model.requests.length;
    await panel.bringToFront();
    await sendImage(frame, 'image-message', 'ui/message', {
      text: 'Here is my drawing.',
      data: drawing.toString('base64'),
      mimeType: 'image/png',
    });
    const { card, summary } = await pendingSummary(panel);
    expect(summary).toBe(
      'Add the MCP App “showCounter”’s message to this conversation: “Here is my drawing.”, with 1 image',
    );
    await shownImage(panel, `section[data-request-id="${card}"] .message-attachments img`, 40);
    await clickInCard(panel, card, 'Allow');
    expect(await answerOf(frame, 'image-message')).toEqual({ jsonrpc: '2.0', id: expect.any(Number), result: {} });
    expect(model.requests.length).toBe(modelRequests);
    const rows = await storedRowsText(panel, await currentSessionId(panel));
    expect(rows).not.toContain(drawing.toString('base64').slice(0, 200));

    model.setScript({ turns: [{ steps: [{ text: 'A nice drawing.' }] }] });
    await sendMessage(panel, 'What did it draw?');
    expect(await turnEnd(panel, 'What did it draw?')).toBe('completed');
    const body = model.requests.at(-1)!.body;
    expect(JSON.stringify(body)).toContain('Here is my drawing.');
    expect(sentCopies(body, drawing)).toBe(1);
  });

  it('sends a context’s image with the next message once, and never carries it again', async () => {
    const { model } = suite;
    const chart = patternPng(24, 16, 11);
    await sendImage(frame, 'image-context', 'ui/update-model-context', {
      text: 'The app shows this chart.',
      data: chart.toString('base64'),
      mimeType: 'image/png',
    });
    expect(await answerOf(frame, 'image-context')).toEqual({ jsonrpc: '2.0', id: expect.any(Number), result: {} });
    await shownImage(panel, '.app-contexts-pending .message-attachments img', 24);

    model.setScript({ turns: [{ steps: [{ text: 'I see the chart.' }] }, { steps: [{ text: 'Still the chart.' }] }] });
    await sendMessage(panel, 'What does the app show?');
    expect(await turnEnd(panel, 'What does the app show?')).toBe('completed');
    const first = model.requests.at(-1)!.body;
    expect(sentCopies(first, chart)).toBe(1);
    expect(JSON.stringify(first)).toContain('The app gave 1 image with it, which follow.');

    await sendMessage(panel, 'And now?');
    expect(await turnEnd(panel, 'And now?')).toBe('completed');
    // Only where it went: in the history of the message that carried it.
    expect(sentCopies(model.requests.at(-1)!.body, chart)).toBe(1);
    expect(JSON.stringify(model.requests.at(-1)!.body).split('The app shows this chart.')).toHaveLength(2);
  });

  it('refuses an image of the wrong type or too large, with the reason, and keeps nothing of it', async () => {
    const sessionId = await currentSessionId(panel);
    const blobs = await storedBlobCount(panel);
    const rows = await storedRowsText(panel, sessionId);
    const count = (text: string, type: string) => text.split(`"type":"${type}"`).length;
    const refusals: [string, string, AppImage, { code: number; message: string }][] = [
      [
        'text-as-png',
        'ui/message',
        { text: 'Look.', data: Buffer.from('not an image at all').toString('base64'), mimeType: 'image/png' },
        {
          code: -32000,
          message: 'The message was not sent: Image 1 is declared image/png, but its bytes are text/plain.',
        },
      ],
      [
        'svg',
        'ui/message',
        {
          data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64'),
          mimeType: 'image/svg+xml',
        },
        {
          code: -32000,
          message:
            'The message was not sent: Image 1 is declared image/svg+xml; only PNG, JPEG, WebP and GIF are taken.',
        },
      ],
      [
        'huge-pixels',
        'ui/update-model-context',
        { text: 'Huge.', data: Buffer.from(pngHeader(20_000, 20_000)).toString('base64'), mimeType: 'image/png' },
        {
          code: -32000,
          message:
            'Context update refused: Image 1 is refused: 20000 × 20000 pixels; at most 50 megapixels are accepted.',
        },
      ],
      [
        'huge-bytes',
        'ui/update-model-context',
        { text: 'Heavy.', filler: 8_000_000, mimeType: 'image/png' },
        { code: -32000, message: 'Its images have more than 5 MB in all.' },
      ],
    ];
    for (const [key, method, image, error] of refusals) {
      await sendImage(frame, key, method, image);
      expect((await answerOf(frame, key)).error).toEqual(error);
    }
    expect(await panel.$('section.approval-card[data-status="pending"]')).toBeNull();
    expect(await storedBlobCount(panel)).toBe(blobs);
    const after = await storedRowsText(panel, sessionId);
    expect(count(after, 'mcp-app/context')).toBe(count(rows, 'mcp-app/context'));
    expect(count(after, 'approval/requested')).toBe(count(rows, 'approval/requested'));
  });

  it('opens an http link in a new tab after the user allows it, and refuses a javascript: link without asking', async () => {
    const { mcp, session } = suite;
    await appRequest(frame, 'script-link', 'ui/open-link', { url: 'javascript:alert(1)' });
    expect((await answerOf(frame, 'script-link')).error).toEqual({
      code: -32602,
      message: 'Only http and https links are opened.',
    });
    expect(await panel.$('section.approval-card[data-status="pending"]')).toBeNull();

    const link = `${mcp.origin}/opened-by-the-app`;
    await appRequest(frame, 'web-link', 'ui/open-link', { url: link });
    const { card, summary } = await pendingSummary(panel);
    expect(summary).toBe(`Open ${link} in a new tab, as the MCP App “showCounter” asks.`);
    expect(session.browser.targets().some((target) => target.url() === link)).toBe(false);
    await clickInCard(panel, card, 'Allow');
    expect((await answerOf(frame, 'web-link')).result).toEqual({});
    expect(session.browser.targets().some((target) => target.url() === link)).toBe(true);
  });

  it('reads a resource of the app’s own server, and never one of another server', async () => {
    const { mcp } = suite;
    await appRequest(frame, 'own', 'resources/read', { uri: 'ui://counter/app.html' });
    const own = await answerOf(frame, 'own');
    expect(own.result?.contents?.[0]?.uri).toBe('ui://counter/app.html');
    expect(own.result?.contents?.[0]?.text).toContain('<h1>Counter</h1>');

    await appRequest(frame, 'other', 'resources/read', { uri: OTHER_SERVER_NOTE_URI });
    const other = await answerOf(frame, 'other');
    expect(other.error?.code).toBe(-32000);
    expect(other.error?.message).toContain('Apps:');
    expect(mcp.calls.get(`read:${OTHER_SERVER_NOTE_URI}`)).toBeUndefined();
  });

  it('refuses to download a web address or another server’s resource without asking anyone', async () => {
    const { mcp } = suite;
    const web = 'https://example.com/q4.pdf';
    await appRequest(frame, 'web-file', 'ui/download-file', {
      contents: [{ type: 'resource_link', uri: web, name: 'Q4 report', mimeType: 'application/pdf' }],
    });
    expect((await answerOf(frame, 'web-file')).error).toEqual({
      code: -32602,
      message: `Only resources of the app’s own MCP server are downloaded; ${web} is not one, and this host fetches nothing from elsewhere.`,
    });
    await appRequest(frame, 'other-file', 'ui/download-file', {
      contents: [
        { type: 'resource', resource: { uri: 'file:///mine.txt', text: 'mine' } },
        { type: 'resource_link', uri: OTHER_SERVER_NOTE_URI, name: 'note' },
      ],
    });
    const other = await answerOf(frame, 'other-file');
    expect(other.error?.code).toBe(-32000);
    expect(other.error?.message).toContain(`Could not read ${OTHER_SERVER_NOTE_URI}: Apps:`);
    expect(mcp.calls.get(`read:${OTHER_SERVER_NOTE_URI}`)).toBeUndefined();
    expect(await panel.$('section.approval-card[data-status="pending"]')).toBeNull();
    expect(await storedRowsText(panel, await currentSessionId(panel))).not.toContain('app_download_file');
  });

  it('lists the resources of the app’s own server, and none of another', async () => {
    await appRequest(frame, 'list', 'resources/list', {});
    const listed = (await answerOf(frame, 'list')).result?.resources?.map((resource) => resource.uri);
    expect(listed).toEqual(expect.arrayContaining([COUNTER_APP_URI, 'note://first', 'image://dot']));
    expect(listed).not.toContain(OTHER_SERVER_NOTE_URI);
  });

  it('runs the app’s own tool call after the service worker was stopped, without opening the app again', async () => {
    const { mcp, session } = suite;
    const stage = await session.stagePage();
    const reconnects = () => stage.evaluate(() => Number(document.documentElement.dataset.reconnects ?? 0));
    const before = await reconnects();
    await session.stopServiceWorker();
    await stage.waitForFunction(
      (count) => Number(document.documentElement.dataset.reconnects ?? 0) > count,
      { polling: 100, timeout: 15_000 },
      before,
    );
    await frame.evaluate(() => document.getElementById('increment')!.click());
    const { card, summary } = await pendingSummary(panel);
    expect(summary).toContain('incrementCounter');
    await clickInCard(panel, card, 'Allow');
    // The tab the app opened is in front: the stage is a background tab, where only timed polling runs.
    await frame.waitForFunction(() => document.getElementById('call-result')?.textContent !== 'waiting for approval', {
      polling: 100,
      timeout: 15_000,
    });
    // The restarted worker has a new session with the server, whose counter (one per session) starts at 0.
    expect(await textOf(frame, '#call-result')).toBe('The counter is at 1.');
    expect(await textOf(frame, '#count')).toBe('1');
    expect(mcp.calls.get('incrementCounter')).toBe(1);
    expect(mcp.calls.get('showCounter')).toBe(1);
  });

  it('keeps the app, and its state in the log, when the panel is reloaded', async () => {
    await panel.reload();
    const rows = await storedRowsText(panel, await currentSessionId(panel));
    expect(rows).toContain('ui://counter/app.html');
    expect(rows).toContain('The MCP App “showCounter” calls incrementCounter');
    expect(rows).toContain('The counter is at 1.');
    await appRequest(frame, 'after-reload', 'resources/read', { uri: 'ui://counter/app.html' });
    expect((await answerOf(frame, 'after-reload')).result?.contents?.[0]?.uri).toBe('ui://counter/app.html');
    expect(await textOf(frame, '#count')).toBe('1');
  });
});
