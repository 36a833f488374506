import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame, Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { startMcpHttpServer } from '../support/mcp-http-server';
import { COUNTER_APP_URI, OFFICIAL_APP_URI } from '../support/mcp-test-apps';
import { TEST_PNG_BASE64 } from '../support/mcp-test-server';
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

/** What the official-SDK app (tests/support/official-sdk-app/app.ts) keeps of what it received and asked. */
interface OfficialAppRecord {
  connected: boolean;
  connectError?: string;
  hostCapabilities?: Record<string, unknown>;
  hostContext?: Record<string, unknown> & { toolInfo?: { tool: { name: string; inputSchema: unknown } } };
  hostInfo?: { name: string; version: string };
  toolInputs: Record<string, unknown>[];
  toolResults: { content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown> }[];
  hostContextChanges: Record<string, unknown>[];
  teardowns: number;
  answers: Record<string, { result?: Record<string, unknown>; error?: string }>;
  errors: string[];
}

function appRecord(frame: Frame): Promise<OfficialAppRecord> {
  return frame.evaluate(() => (window as unknown as { officialApp: OfficialAppRecord }).officialApp);
}

/** Clicks one of the app's buttons (one SDK call each) and waits for the SDK call's answer. */
async function press(frame: Frame, button: string): Promise<void> {
  await frame.evaluate((id) => {
    delete (window as unknown as { officialApp: OfficialAppRecord }).officialApp.answers[id];
    document.getElementById(id)!.click();
  }, button);
}

async function answerOf(frame: Frame, button: string): Promise<{ result?: Record<string, unknown>; error?: string }> {
  const handle = await frame.waitForFunction(
    (id) => (window as unknown as { officialApp: OfficialAppRecord }).officialApp.answers[id] ?? false,
    { polling: 100, timeout: 30_000 },
    button,
  );
  return (await handle.jsonValue()) as { result?: Record<string, unknown>; error?: string };
}

async function pendingSummary(panel: Page): Promise<{ card: string; summary: string }> {
  const card = await pendingApproval(panel);
  const summary = await panel.$eval(`section[data-request-id="${card}"] .request-summary`, (element) =>
    (element.textContent ?? '').trim(),
  );
  return { card, summary };
}

describe('An MCP App built with the official SDK (@modelcontextprotocol/ext-apps) in the stage', () => {
  const downloads = mkdtempSync(join(tmpdir(), 'splitbrain-downloads-'));
  const suite = extensionSuite(
    { model: () => startScriptedModelServer(), mcp: () => startMcpHttpServer() },
    ({ session, mcp }) => storeMcpServers(session, [{ id: 'apps', name: 'Apps', url: `${mcp.origin}/apps` }]),
    { downloadsFolder: downloads },
  );
  let panel: Page;
  let frame: Frame;

  it('renders, gets the real call’s input and result, and reads the host context and capabilities of the handshake', async () => {
    const { model, mcp, session } = suite;
    const link = `${mcp.origin}/opened-by-the-official-app`;
    model.setScript({
      turns: [
        {
          steps: [
            {
              toolCalls: [{ name: 'mcp_apps_showOfficialCounter', arguments: { start: 41, link }, id: 'official-1' }],
            },
            { text: 'The official counter is shown.' },
          ],
        },
      ],
    });
    panel = await session.openPanel();
    await sendMessage(panel, 'Show me the official counter at 41.');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    expect(JSON.stringify(model.requests[1].body)).toContain(OFFICIAL_APP_URI);

    frame = await appFrame(session, 'Official SDK counter');
    await frame.waitForFunction(
      () => {
        const app = (window as unknown as { officialApp?: OfficialAppRecord }).officialApp;
        return (app?.connected && app.toolResults.length > 0) || app?.connectError !== undefined;
      },
      { polling: 100, timeout: 15_000 },
    );
    const record = await appRecord(frame);
    expect(record.connectError).toBeUndefined();
    expect(record.errors).toEqual([]);
    // ontoolinput and ontoolresult fired once each, with what the model's call sent and the server answered.
    expect(record.toolInputs).toEqual([{ start: 41, link }]);
    expect(record.toolResults).toEqual([
      { content: [{ type: 'text', text: 'The official counter is at 41.' }], structuredContent: { count: 41 } },
    ]);
    expect(await textOf(frame, '#count')).toBe('41');
    expect(await textOf(frame, '#input')).toBe(JSON.stringify({ start: 41, link }));

    // The handshake as the SDK read it: the host, what it serves, and its context.
    expect(record.hostInfo).toEqual({ name: 'splitbrain', version: expect.any(String) });
    const context = record.hostContext!;
    expect(context.platform).toBe('web');
    expect(context.displayMode).toBe('inline');
    expect(context.toolInfo?.tool.name).toBe('showOfficialCounter');
    expect(context.toolInfo?.tool.inputSchema).toMatchObject({ type: 'object', properties: { start: {}, link: {} } });
    expect(['light', 'dark']).toContain(context.theme);
    expect(record.hostCapabilities).toMatchObject({
      serverTools: {},
      serverResources: {},
      openLinks: {},
      downloadFile: {},
    });
    const stage = await session.stagePage();
    expect(await stage.$eval('#target-title', (element) => element.textContent)).toBe(
      'showOfficialCounter · MCP App of Apps',
    );
  });

  it('runs the app’s callServerTool through an approval card: the server runs it once, after Allow', async () => {
    const { mcp } = suite;
    await press(frame, 'increment');
    const { card, summary } = await pendingSummary(panel);
    expect(summary).toContain('incrementCounter');
    expect(mcp.calls.get('incrementCounter')).toBeUndefined();
    await panel.screenshot({ path: 'tests/screenshots/mcp-app-approval.png' });
    await clickInCard(panel, card, 'Allow');
    const answer = await answerOf(frame, 'increment');
    expect(answer.error).toBeUndefined();
    expect(answer.result).toMatchObject({
      content: [{ type: 'text', text: 'The counter is at 42.' }],
      structuredContent: { count: 42 },
    });
    expect(await textOf(frame, '#count')).toBe('42');
    await (await suite.session.stagePage()).screenshot({ path: 'tests/screenshots/mcp-app.png' });
    expect(mcp.calls.get('incrementCounter')).toBe(1);
    expect(mcp.calls.get('showOfficialCounter')).toBe(1);
    const rows = await storedRowsText(panel, await currentSessionId(panel));
    expect(rows).toContain('mcp_apps_incrementCounter');
    expect(rows).toContain('The counter is at 42.');
  });

  it('sends the app’s message and opens its link only after the user allows each, through the SDK’s own calls', async () => {
    const { mcp, session } = suite;
    await press(frame, 'message');
    const message = await pendingSummary(panel);
    expect(message.summary).toBe(
      'Add the MCP App “showOfficialCounter”’s message to this conversation: “The counter app says: count is 42.”',
    );
    await clickInCard(panel, message.card, 'Allow');
    expect(await answerOf(frame, 'message')).toEqual({ result: {} });

    const link = `${mcp.origin}/opened-by-the-official-app`;
    await press(frame, 'link');
    const opening = await pendingSummary(panel);
    expect(opening.summary).toBe(`Open ${link} in a new tab, as the MCP App “showOfficialCounter” asks.`);
    await clickInCard(panel, opening.card, 'Allow');
    expect(await answerOf(frame, 'link')).toEqual({ result: {} });
    expect(session.browser.targets().some((target) => target.url() === link)).toBe(true);
  });

  it('saves the app’s files (embedded, and read from its server) after one approval, byte for byte', async () => {
    await press(frame, 'download');
    const { card, summary } = await pendingSummary(panel);
    const csv = Buffer.from('count,note\n42,café\n');
    const png = Buffer.from(TEST_PNG_BASE64, 'base64');
    expect(summary).toBe(
      `The MCP App “showOfficialCounter” wants to save 2 files: counter.csv (text/csv, ${csv.length} B), ` +
        `Counter chart.png (image/png, ${png.length} B).`,
    );
    expect(readdirSync(downloads)).toEqual([]);
    await clickInCard(panel, card, 'Allow');
    expect(await answerOf(frame, 'download')).toEqual({ result: {} });
    expect(readdirSync(downloads).sort()).toEqual(['Counter chart.png', 'counter.csv']);
    expect(readFileSync(join(downloads, 'counter.csv'))).toEqual(csv);
    expect(readFileSync(join(downloads, 'Counter chart.png'))).toEqual(png);

    await press(frame, 'download');
    const denied = await pendingSummary(panel);
    await clickInCard(panel, denied.card, 'Deny');
    expect(await answerOf(frame, 'download')).toEqual({ result: { isError: true } });
    expect(readdirSync(downloads).sort()).toEqual(['Counter chart.png', 'counter.csv']);
    const rows = await storedRowsText(panel, await currentSessionId(panel));
    expect(rows).toContain('app_download_file');
    expect(rows).toContain('The MCP App “showOfficialCounter” asks to save 2 files.');
  });

  it('lists its own server’s resources through the SDK’s listServerResources, checked as the SDK reads them', async () => {
    await press(frame, 'resources');
    const answer = await answerOf(frame, 'resources');
    expect(answer.error).toBeUndefined();
    const listed = (answer.result?.resources as { uri: string; name: string }[]).map((resource) => resource.uri);
    expect(listed).toEqual(
      expect.arrayContaining(['note://first', 'image://dot', 'note://trip', COUNTER_APP_URI, OFFICIAL_APP_URI]),
    );
  });

  it('tells the model what the app said with the user’s next message, fenced, once, and shows it in the panel first', async () => {
    const { model } = suite;
    await press(frame, 'context');
    expect(await answerOf(frame, 'context')).toEqual({ result: {} });
    const said = 'The user is looking at the counter, which shows 42.';
    // Before the message is sent, the panel shows what it will carry.
    await panel.waitForFunction(
      (text) => document.querySelector('.app-contexts-pending')?.textContent?.includes(text) ?? false,
      { polling: 100, timeout: 15_000 },
      said,
    );
    expect(await panel.$eval('.app-contexts-pending summary', (element) => element.textContent)).toBe(
      'The MCP App “showOfficialCounter” of Apps will tell the model with your next message:',
    );
    // The same context again is not written again.
    await press(frame, 'context');
    expect(await answerOf(frame, 'context')).toEqual({ result: {} });

    const before = model.requests.length;
    model.setScript({
      turns: [{ steps: [{ text: 'I see the counter at 42.' }] }, { steps: [{ text: 'Still 42.' }] }],
    });
    await panel.bringToFront();
    await sendMessage(panel, 'What does the counter show?');
    expect(await turnEnd(panel, 'What does the counter show?')).toBe('completed');
    expect(model.requests.length).toBe(before + 1);
    const sent = JSON.stringify(model.requests.at(-1)!.body);
    expect(sent).toContain(said);
    expect(sent).toContain('Structured content: {\\"count\\":42}');
    expect(sent).toMatch(/<<PAGE-DATA [0-9a-f]{32}>>\\nApp: showOfficialCounter\\nThe user is looking/);
    expect(sent.split(said)).toHaveLength(2);
    // Shown under the message that carried it, and no longer waiting.
    await panel.waitForFunction(() => document.querySelector('.app-contexts-pending') === null, {
      polling: 100,
      timeout: 15_000,
    });
    const carried = await panel.$$eval(
      'article.turn',
      (items) => items.at(-1)?.querySelector('.app-contexts')?.textContent,
    );
    expect(carried).toContain('Sent with this message: what the MCP App “showOfficialCounter” of Apps told the model');
    expect(carried).toContain(said);
    const rows = await storedRowsText(panel, await currentSessionId(panel));
    expect(rows.split('mcp-app/context')).toHaveLength(2);

    // The next message sends it only where it was: once, in the history.
    await sendMessage(panel, 'And now?');
    expect(await turnEnd(panel, 'And now?')).toBe('completed');
    expect(JSON.stringify(model.requests.at(-1)!.body).split(said)).toHaveLength(2);
  });

  it('shows the model a picture through the SDK’s updateModelContext, as the host declares it takes images', async () => {
    expect((await appRecord(frame)).hostCapabilities).toMatchObject({
      message: { text: {}, image: {} },
      updateModelContext: { text: {}, image: {}, structuredContent: {} },
    });
    await press(frame, 'image-context');
    expect(await answerOf(frame, 'image-context')).toEqual({ result: {} });
    await panel.waitForFunction(
      () =>
        [...document.querySelectorAll<HTMLImageElement>('.app-contexts-pending .message-attachments img')].some(
          (image) => image.complete && image.naturalWidth === 1,
        ),
      { polling: 100, timeout: 15_000 },
    );
    expect(await panel.$eval('.app-contexts-pending', (element) => element.textContent)).toContain(
      'The counter at 42, drawn.',
    );
  });

  it('goes full screen only as the app declared, tells it so, and comes back inline by the host’s button', async () => {
    const { session } = suite;
    const stage = await session.stagePage();
    await stage.bringToFront();
    await press(frame, 'fullscreen');
    expect((await answerOf(frame, 'fullscreen')).result).toEqual({ mode: 'fullscreen' });
    expect(await stage.evaluate(() => document.body.classList.contains('app-fullscreen'))).toBe(true);
    expect(await stage.$eval('.stage-bar', (element) => getComputedStyle(element).display)).toBe('none');
    expect(await stage.$eval('#fullscreen-exit', (element) => element.textContent)).toBe(
      'Exit full screen · showOfficialCounter · MCP App of Apps',
    );
    const fullscreen = (await appRecord(frame)).hostContextChanges.find(
      (change) => change.displayMode === 'fullscreen',
    );
    const size = await stage.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight }));
    expect(fullscreen?.containerDimensions).toEqual(size);
    expect(await textOf(frame, '#display-mode')).toBe('fullscreen');

    // Picture in picture is not a mode of this host: the app stays where it is.
    await press(frame, 'pip');
    expect((await answerOf(frame, 'pip')).result).toEqual({ mode: 'fullscreen' });

    await stage.click('#fullscreen-exit');
    await frame.waitForFunction(() => document.getElementById('display-mode')?.textContent === 'inline', {
      polling: 100,
      timeout: 15_000,
    });
    expect(await stage.evaluate(() => document.body.classList.contains('app-fullscreen'))).toBe(false);
    expect((await appRecord(frame)).hostContextChanges.at(-1)).toMatchObject({
      displayMode: 'inline',
      containerDimensions: { width: size.width, maxHeight: 4000 },
    });
  });

  it('keeps the app’s log in the stage, and tells the app when the theme or its container’s size changes', async () => {
    const { session } = suite;
    const stage = await session.stagePage();
    await stage.bringToFront();
    await press(frame, 'log');
    expect(await answerOf(frame, 'log')).toEqual({});
    await stage.waitForFunction(() => document.documentElement.dataset.appLogs === '1', {
      polling: 100,
      timeout: 15_000,
    });
    expect(await stage.$eval('#app-log li', (element) => element.textContent)).toBe('info counter: viewed at 42');

    const changes = (await appRecord(frame)).hostContextChanges.length;
    const dark = (await stage.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)) ? 'light' : 'dark';
    await stage.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: dark }]);
    await frame.waitForFunction(
      (theme) =>
        (window as unknown as { officialApp: OfficialAppRecord }).officialApp.hostContextChanges.some(
          (change) => change.theme === theme,
        ),
      { polling: 100, timeout: 15_000 },
      dark,
    );
    // The app applied it as the SDK's applyDocumentTheme does, on a backdrop of that theme.
    expect(await frame.evaluate(() => document.documentElement.dataset.theme)).toBe(dark);
    expect(await stage.$eval('#frame-host iframe', (element) => getComputedStyle(element).backgroundColor)).toBe(
      dark === 'dark' ? 'rgb(11, 13, 18)' : 'rgb(255, 255, 255)',
    );

    const width = await stage.evaluate(() => innerWidth);
    await stage.setViewport({ width: width - 100, height: 600 });
    await frame.waitForFunction(
      (expected) =>
        (window as unknown as { officialApp: OfficialAppRecord }).officialApp.hostContextChanges.some(
          (change) => (change.containerDimensions as { width?: number } | undefined)?.width === expected,
        ),
      { polling: 100, timeout: 15_000 },
      width - 100,
    );
    expect((await appRecord(frame)).hostContextChanges.length).toBeGreaterThan(changes);
  });

  it('asks the app to tear down before another one replaces it, and the SDK answers', async () => {
    const { model, session } = suite;
    model.setScript({
      turns: [
        {
          steps: [
            { toolCalls: [{ name: 'mcp_apps_showCounter', arguments: { start: 7 }, id: 'counter-1' }] },
            { text: 'The counter is shown.' },
          ],
        },
      ],
    });
    await panel.bringToFront();
    await sendMessage(panel, 'Now the plain counter at 7.');
    expect(await turnEnd(panel, 'Now the plain counter at 7.')).toBe('completed');
    const counter = await appFrame(session, 'Counter');
    await counter.waitForFunction(() => document.getElementById('count')?.textContent === '7', {
      polling: 100,
      timeout: 15_000,
    });
    const stage = await session.stagePage();
    expect(await stage.evaluate(() => document.documentElement.dataset.appTeardown)).toBe('answered');
    expect(await stage.evaluate(() => document.documentElement.dataset.appLogs)).toBeUndefined();
  });
});
