import { resolve } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { startMcpHttpServer, type McpHttpServer } from '../support/mcp-http-server';
import {
  clickInCard,
  configureEndpoint,
  currentSessionId,
  launchExtension,
  sendMessage,
  storedRowsText,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';

const SECRET = 'Bearer mcp-secret-7781-do-not-log';
const SCREENSHOT = resolve(import.meta.dirname, '../../docs/mcp-settings.png');

async function fill(page: Page, label: string, value: string): Promise<void> {
  const selector = `[aria-label="${label}"]`;
  await page.$eval(selector, (element) => ((element as HTMLInputElement).value = ''));
  await page.type(selector, value);
}

async function storedServers(page: Page): Promise<unknown> {
  return page.evaluate(async () => {
    const local = (
      globalThis as unknown as {
        chrome: { storage: { local: { get(key: string): Promise<Record<string, unknown>> } } };
      }
    ).chrome.storage.local;
    return (await local.get('mcpServers')).mcpServers;
  });
}

async function testConnection(options: Page): Promise<string[]> {
  await options.click('.mcp-server-editor button::-p-text(Test connection)');
  await options.waitForFunction(
    () =>
      document.querySelector('.mcp-server-editor .connection-check') &&
      !document.querySelector('.mcp-server-editor .spinner'),
    { timeout: 20_000 },
  );
  return options.$$eval('.mcp-server-editor .connection-check', (items) =>
    items.map((item) => `${item.getAttribute('data-ok')} ${item.textContent}`),
  );
}

async function openOptions(session: ExtensionSession): Promise<Page> {
  const options = await session.browser.newPage();
  await options.setViewport({ width: 760, height: 1000 });
  await options.goto(`chrome-extension://${session.extensionId}/options.html`);
  await options.waitForSelector('section.mcp-servers');
  return options;
}

async function pendingApproval(panel: Page): Promise<string> {
  const handle = await panel.waitForFunction(
    () =>
      document.querySelector('section.approval-card[data-status="pending"]')?.getAttribute('data-request-id') ?? false,
    { polling: 100, timeout: 30_000 },
  );
  return (await handle.jsonValue()) as string;
}

describe('MCP servers in Settings, in Chromium', () => {
  let model: ScriptedModelServer;
  let mcp: McpHttpServer;
  let session: ExtensionSession;

  beforeAll(async () => {
    model = await startScriptedModelServer();
    mcp = await startMcpHttpServer();
    session = await launchExtension();
    await configureEndpoint(session, model.url);
  });

  afterAll(async () => {
    await session?.close();
    await model?.close();
    await mcp?.close();
  });

  it('adds a server with a secret header, tests it, sets approval per tool, and the model gets its tools; the header never reaches the log', async () => {
    const options = await openOptions(session);
    await fill(options, 'Server name', 'Notes');
    await fill(options, 'Server URL', `${mcp.origin}/mcp`);
    await fill(options, 'Header 1 name', 'Authorization');
    await fill(options, 'Header 1 value', SECRET);
    const report = await testConnection(options);
    expect(report[0]).toBe('true ✓ Server: splitbrain-test-server 1.2.3');
    expect(report[1]).toContain('readNote (read-only)');
    expect(report[1]).toContain('deleteNote (destructive)');
    expect(report[1]).toContain('appendNote (no hint)');
    expect(report[2]).toBe('true Resources (3): note://first, image://dot, note://trip');
    expect(report[3]).toBe('true Prompts (2): summarize, plan');
    expect(mcp.authorizations.length).toBeGreaterThan(0);
    expect(mcp.authorizations.every((value) => value === SECRET)).toBe(true);

    expect(await options.$eval('select[aria-label="Approval of deleteNote"]', (select) => select.disabled)).toBe(true);
    await options.select('select[aria-label="Approval of readNote"]', 'ask');
    await options.select('select[aria-label="Approval of appendNote"]', 'allow');
    await options.evaluate(() => document.fonts.ready);
    await (await options.$('section.mcp-servers'))!.screenshot({ path: SCREENSHOT as `${string}.png` });

    await options.click('.mcp-server-editor button[type="submit"]');
    await options.waitForFunction(
      () => document.querySelector('.mcp-server-editor .status')?.textContent === 'Saved Notes.',
      { timeout: 5_000 },
    );
    expect(await storedServers(options)).toEqual([
      {
        id: 'notes',
        name: 'Notes',
        url: `${mcp.origin}/mcp`,
        transport: 'streamable-http',
        headers: { Authorization: SECRET },
        auth: 'headers',
        enabled: true,
        toolModes: { readNote: 'ask', appendNote: 'allow' },
        alwaysAsk: false,
      },
    ]);
    expect(
      await options.$$eval('ul[aria-label="MCP servers"] strong', (rows) => rows.map((row) => row.textContent)),
    ).toEqual(['Notes']);

    // readNote is read-only, yet the user chose "ask" for it: it waits for the card.
    model.setScript({
      turns: [
        {
          steps: [
            { toolCalls: [{ name: 'mcp_notes_readNote', arguments: { title: 'shopping' }, id: 'read-1' }] },
            { toolCalls: [{ name: 'mcp_notes_appendNote', arguments: { line: 'eggs' }, id: 'append-1' }] },
            { text: 'Done.' },
          ],
        },
      ],
    });
    const panel = await session.openPanel();
    await sendMessage(panel, 'Read my shopping note and add eggs.');
    await clickInCard(panel, await pendingApproval(panel), 'Allow');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    expect(mcp.calls.get('readNote')).toBe(1);
    expect(mcp.calls.get('appendNote')).toBe(1);
    expect(await panel.$$eval('section.approval-card', (cards) => cards.length)).toBe(1);
    expect(JSON.stringify(model.requests[0].body)).toContain('mcp_notes_appendNote');
    expect(JSON.stringify(model.requests[2].body)).toContain('Appended eggs.');
    const log = await storedRowsText(panel, await currentSessionId(panel));
    expect(log).toContain('mcp_notes_readNote');
    expect(log).not.toContain('mcp-secret-7781');

    // Switched off, the server's tools are no longer offered.
    await options.bringToFront();
    await options.click('input[aria-label="Enable Notes"]');
    await options.waitForSelector('li[data-server-id="notes"][data-enabled="false"]');
    model.clearRequests();
    model.setScript({ turns: [{ steps: [{ text: 'No tools.' }] }] });
    await panel.bringToFront();
    await panel.click('button::-p-text(New chat)');
    await sendMessage(panel, 'Anything?');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    expect(JSON.stringify(model.requests[0].body)).not.toContain('mcp_notes_');

    await options.bringToFront();
    await options.click('button[aria-label="Remove Notes"]');
    await options.waitForFunction(
      () => document.querySelector('.mcp-servers .status')?.textContent === 'Removed Notes.',
      {
        timeout: 5_000,
      },
    );
    expect(await storedServers(options)).toEqual([]);
    await panel.close();
    await options.close();
  });

  it('says exactly why a server fails or what it left out: a 401, a reply that is not JSON-RPC, 500 tools and a schema that is not JSON Schema, nothing listening, an address that is not http', async () => {
    const options = await openOptions(session);
    await fill(options, 'Server name', 'Broken');
    await fill(options, 'Server URL', `${mcp.origin}/unauthorized`);
    expect(await testConnection(options)).toEqual([
      'false ✗ The server answered 401 Unauthorized: check the Authorization header, or choose OAuth to sign in.',
    ]);
    await fill(options, 'Server URL', `${mcp.origin}/malformed`);
    expect(await testConnection(options)).toEqual(['false ✗ The server sent a reply that is not valid JSON-RPC 2.0.']);
    await fill(options, 'Server URL', `${mcp.origin}/many`);
    const many = await testConnection(options);
    expect(many[0]).toBe('true ✓ Server: many-tools 0.0.1');
    expect(many[1]).toMatch(/^true Tools \(100\): tool0 \(no hint\), /);
    expect(many.slice(4)).toEqual([
      'false Tool "broken" left out: inputSchema.properties.a.type: "text" is not a JSON Schema type.',
      'false Broken lists 500 tools; only the first 100 are offered to the model.',
    ]);
    await fill(options, 'Server URL', 'http://127.0.0.1:9/mcp');
    const refused = await testConnection(options);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatch(/^false ✗ .+/);
    await fill(options, 'Server URL', 'ftp://127.0.0.1/mcp');
    await options.$eval('.mcp-server-editor', (form) => ((form as HTMLFormElement).noValidate = true));
    await options.click('.mcp-server-editor button[type="submit"]');
    await options.waitForFunction(
      () =>
        document.querySelector('.mcp-server-editor .status')?.textContent ===
        'Not saved: url: Only http and https URLs.',
      { timeout: 5_000 },
    );
    expect(JSON.stringify(await storedServers(options))).not.toContain('Broken');
    await options.close();
  });
});
