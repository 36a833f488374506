import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { startMcpHttpServer } from '../support/mcp-http-server';
import { TEST_PNG_BASE64 } from '../support/mcp-test-server';
import { currentSessionId, storeMcpServers, sendMessage, storedRowsText, waitForTurnEnd } from './extension-harness';
import { extensionSuite } from './extension-suite';

async function attachResource(panel: Page, uri: string): Promise<void> {
  await panel.click('button[aria-label="Attach an MCP resource"]');
  await panel.waitForSelector(`ul[aria-label="Resources of your MCP servers"] button[data-uri="${uri}"]`);
  await panel.click(`ul[aria-label="Resources of your MCP servers"] button[data-uri="${uri}"]`);
}

async function waitForReadyChips(panel: Page, names: string[]): Promise<void> {
  await panel.waitForFunction(
    (want) =>
      JSON.stringify(
        [...document.querySelectorAll('.attachment-chips .attachment-chip')].map(
          (chip) => `${chip.querySelector('.attachment-name')?.textContent}:${chip.getAttribute('data-state')}`,
        ),
      ) === JSON.stringify(want),
    { timeout: 15_000, polling: 50 },
    names.map((name) => `${name}:ready`),
  );
}

describe('MCP resources as attachments, in Chromium', () => {
  const suite = extensionSuite(
    { model: () => startScriptedModelServer(), mcp: () => startMcpHttpServer() },
    ({ session, mcp }) => storeMcpServers(session, [{ id: 'notes', name: 'Notes', url: `${mcp.origin}/mcp` }]),
  );

  it('lists the server’s resources in the attach menu and sends a text one, a binary one and one of two parts with the message, as files', async () => {
    const { model, session } = suite;
    model.setScript({ turns: [{ steps: [{ text: 'Got both.' }] }] });
    const panel = await session.openPanel();
    await panel.waitForSelector('button[aria-label="Attach an MCP resource"]', { timeout: 15_000 });
    await panel.click('button[aria-label="Attach an MCP resource"]');
    const listed = await panel.$$eval('ul[aria-label="Resources of your MCP servers"] button', (items) =>
      items.map((item) => item.textContent),
    );
    expect(listed).toEqual(['first-notenote://first · Notes', 'dotimage://dot · Notes', 'tripnote://trip · Notes']);
    await panel.click('button[aria-label="Attach an MCP resource"]');

    await attachResource(panel, 'note://first');
    await waitForReadyChips(panel, ['first-note.txt']);
    await attachResource(panel, 'image://dot');
    await waitForReadyChips(panel, ['first-note.txt', 'dot.png']);
    // A resource of two parts is attached whole: a file for each.
    await attachResource(panel, 'note://trip');
    await waitForReadyChips(panel, ['first-note.txt', 'dot.png', 'trip (part 1 of 2).md', 'map.png']);

    await sendMessage(panel, 'What is in these?');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    const body = JSON.stringify(model.requests[0].body);
    expect(body).toContain('buy milk');
    expect(body).toContain('image/png');
    expect(body).toContain('first-note.txt');
    expect(body).toContain('Pack the boots.');

    const log = await storedRowsText(panel, await currentSessionId(panel));
    expect(log).toContain('first-note.txt');
    expect(log).toContain('dot.png');
    expect(log).toContain('map.png');
    // The bytes are in the blob store; the log holds references only.
    expect(log).not.toContain(TEST_PNG_BASE64);
    await panel.close();
  });
});
