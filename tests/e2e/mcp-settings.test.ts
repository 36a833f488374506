import { resolve } from 'node:path';
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { startMcpHttpServer } from '../support/mcp-http-server';
import {
  clickInCard,
  currentSessionId,
  pendingApproval,
  sendMessage,
  storedRowsText,
  storedSetting,
  waitForTurnEnd,
} from './extension-harness';
import { extensionSuite } from './extension-suite';
import {
  enterMcpServer,
  fillField,
  openMcpSettings,
  saveMcpServer,
  testConnection,
  waitForEditorStatus,
} from './mcp-server-editor';

const SECRET = 'Bearer mcp-secret-7781-do-not-log';
const SCREENSHOT = resolve(import.meta.dirname, '../../docs/mcp-settings.png');

async function storedServers(page: Page): Promise<unknown> {
  return storedSetting(page, 'mcpServers');
}

describe('MCP servers in Settings, in Chromium', () => {
  const suite = extensionSuite({ model: () => startScriptedModelServer(), mcp: () => startMcpHttpServer() });

  it('adds a server with a secret header, tests it, sets approval per tool, and the model gets its tools; the header never reaches the log', async () => {
    const { model, mcp, session } = suite;
    const options = await openMcpSettings(session, { width: 760, height: 1000 });
    await enterMcpServer(options, 'Notes', `${mcp.origin}/mcp`);
    await fillField(options, 'Header 1 name', 'Authorization');
    await fillField(options, 'Header 1 value', SECRET);
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

    await saveMcpServer(options, 'Notes');
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
    const { mcp, session } = suite;
    const options = await openMcpSettings(session, { width: 760, height: 1000 });
    await enterMcpServer(options, 'Broken', `${mcp.origin}/unauthorized`);
    expect(await testConnection(options)).toEqual([
      'false ✗ The server answered 401 Unauthorized: check the Authorization header, or choose OAuth to sign in.',
    ]);
    await fillField(options, 'Server URL', `${mcp.origin}/malformed`);
    expect(await testConnection(options)).toEqual(['false ✗ The server sent a reply that is not valid JSON-RPC 2.0.']);
    await fillField(options, 'Server URL', `${mcp.origin}/many`);
    const many = await testConnection(options);
    expect(many[0]).toBe('true ✓ Server: many-tools 0.0.1');
    expect(many[1]).toMatch(/^true Tools \(100\): tool0 \(no hint\), /);
    expect(many.slice(4)).toEqual([
      'false Tool "broken" left out: inputSchema.properties.a.type: "text" is not a JSON Schema type.',
      'false Broken lists 500 tools; only the first 100 are offered to the model.',
    ]);
    await fillField(options, 'Server URL', 'http://127.0.0.1:9/mcp');
    const refused = await testConnection(options);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatch(/^false ✗ .+/);
    await fillField(options, 'Server URL', 'ftp://127.0.0.1/mcp');
    await options.$eval('.mcp-server-editor', (form) => ((form as HTMLFormElement).noValidate = true));
    await options.click('.mcp-server-editor button[type="submit"]');
    await waitForEditorStatus(options, 'Not saved: url: Only http and https URLs.');
    expect(JSON.stringify(await storedServers(options))).not.toContain('Broken');
    await options.close();
  });
});
