import type { Frame, Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { startMcpHttpServer } from '../support/mcp-http-server';
import { COUNTER_APP_URI, OTHER_SERVER_NOTE_URI } from '../support/mcp-test-apps';
import {
  clickInCard,
  pendingApproval,
  currentSessionId,
  sendMessage,
  storeMcpServers,
  storedRowsText,
  waitForTurnEnd,
} from './extension-harness';
import { appFrame, textOf } from './mcp-app-harness';
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
      message: { text: {} },
      updateModelContext: { text: {}, structuredContent: {} },
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
