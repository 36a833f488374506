import type { Frame, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { startMcpHttpServer, type McpHttpServer } from '../support/mcp-http-server';
import { OFFICIAL_APP_URI } from '../support/mcp-test-apps';
import {
  clickInCard,
  configureEndpoint,
  currentSessionId,
  launchExtension,
  sendMessage,
  storeMcpServers,
  storedRowsText,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';
import { appFrame, pendingApproval, textOf } from './mcp-app-harness';

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
  let model: ScriptedModelServer;
  let mcp: McpHttpServer;
  let session: ExtensionSession;
  let panel: Page;
  let frame: Frame;

  beforeAll(async () => {
    model = await startScriptedModelServer();
    mcp = await startMcpHttpServer();
    session = await launchExtension();
    await configureEndpoint(session, model.url);
    await storeMcpServers(session, [{ id: 'apps', name: 'Apps', url: `${mcp.origin}/apps` }]);
  });

  afterAll(async () => {
    await session?.close();
    await model?.close();
    await mcp?.close();
  });

  it('renders, gets the real call’s input and result, and reads the host context and capabilities of the handshake', async () => {
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
    expect(record.hostCapabilities).toMatchObject({ serverTools: {}, serverResources: {}, openLinks: {} });
    const stage = await session.stagePage();
    expect(await stage.$eval('#target-title', (element) => element.textContent)).toBe(
      'showOfficialCounter · MCP App of Apps',
    );
  });

  it('runs the app’s callServerTool through an approval card: the server runs it once, after Allow', async () => {
    await press(frame, 'increment');
    const { card, summary } = await pendingSummary(panel);
    expect(summary).toContain('incrementCounter');
    expect(mcp.calls.get('incrementCounter')).toBeUndefined();
    await clickInCard(panel, card, 'Allow');
    const answer = await answerOf(frame, 'increment');
    expect(answer.error).toBeUndefined();
    expect(answer.result).toMatchObject({
      content: [{ type: 'text', text: 'The counter is at 42.' }],
      structuredContent: { count: 42 },
    });
    expect(await textOf(frame, '#count')).toBe('42');
    expect(mcp.calls.get('incrementCounter')).toBe(1);
    expect(mcp.calls.get('showOfficialCounter')).toBe(1);
    const rows = await storedRowsText(panel, await currentSessionId(panel));
    expect(rows).toContain('mcp_apps_incrementCounter');
    expect(rows).toContain('The counter is at 42.');
  });
});
