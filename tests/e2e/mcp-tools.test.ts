import { describe, expect, it } from 'vitest';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { startMcpHttpServer } from '../support/mcp-http-server';
import { clickInCard, pendingApproval, sendMessage, storeMcpServers, waitForTurnEnd } from './extension-harness';
import { extensionSuite } from './extension-suite';

describe('MCP server tools, in Chromium', () => {
  const suite = extensionSuite(
    { model: () => startScriptedModelServer(), mcp: () => startMcpHttpServer() },
    ({ session, mcp }) => storeMcpServers(session, [{ id: 'notes', name: 'Notes', url: `${mcp.origin}/mcp` }]),
  );

  it('offers the server’s tools, runs a read-only one, asks before a destructive one, returns the results', async () => {
    const { model, mcp, session } = suite;
    model.setScript({
      turns: [
        {
          steps: [
            { toolCalls: [{ name: 'mcp_notes_readNote', arguments: { title: 'shopping' }, id: 'read-1' }] },
            { toolCalls: [{ name: 'mcp_notes_deleteNote', arguments: { title: 'shopping' }, id: 'delete-1' }] },
            { text: 'Done.' },
          ],
        },
      ],
    });
    const panel = await session.openPanel();
    await sendMessage(panel, 'Read and delete my shopping note.');
    const card = await pendingApproval(panel);
    expect(mcp.calls.get('readNote')).toBe(1);
    expect(mcp.calls.get('deleteNote')).toBeUndefined();
    await clickInCard(panel, card, 'Allow');
    await waitForTurnEnd(panel, 0);
    expect(mcp.calls.get('deleteNote')).toBe(1);
    const firstRequest = JSON.stringify(model.requests[0].body);
    expect(firstRequest).toContain('mcp_notes_readNote');
    expect(firstRequest).toContain('Reads a note by its title.');
    expect(JSON.stringify(model.requests[1].body)).toContain('Note shopping: buy milk.');
    expect(JSON.stringify(model.requests[2].body)).toContain('Deleted shopping.');
  });

  it('calls a cut-off call outcome unknown when the worker stops mid-call, and never calls it twice', async () => {
    const { model, mcp, session } = suite;
    model.clearRequests();
    model.setScript({
      turns: [
        {
          steps: [
            { toolCalls: [{ name: 'mcp_notes_slowWrite', arguments: { text: 'hello' }, id: 'slow-1' }] },
            { text: 'Done.' },
          ],
        },
      ],
    });
    const panel = await session.openPanel();
    await panel.click('button::-p-text(New chat)');
    await sendMessage(panel, 'Write hello slowly.');
    await clickInCard(panel, await pendingApproval(panel), 'Allow');
    await expect.poll(() => mcp.calls.get('slowWrite'), { timeout: 15_000 }).toBe(1);
    await session.stopServiceWorker();
    expect(await waitForTurnEnd(panel, 0, 45_000)).toBe('completed');
    mcp.releaseSlow();
    const cards = await panel.$$eval('section.tool-card', (items) =>
      items.map((item) => item.getAttribute('data-status')),
    );
    expect(cards).toEqual(['unknown']);
    expect(mcp.calls.get('slowWrite')).toBe(1);
    expect(JSON.stringify(model.requests.at(-1)!.body)).toContain('Outcome unknown');
    await panel.close();
  });

  it('offers a tool the server added (a list change) from the next turn on', async () => {
    const { model, mcp, session } = suite;
    model.clearRequests();
    model.setScript({
      turns: [
        { steps: [{ toolCalls: [{ name: 'mcp_notes_addTool', arguments: {}, id: 'add-1' }] }, { text: 'Added.' }] },
        { steps: [{ toolCalls: [{ name: 'mcp_notes_extraTool', arguments: {}, id: 'extra-1' }] }, { text: 'Done.' }] },
      ],
    });
    const panel = await session.openPanel();
    await panel.click('button::-p-text(New chat)');
    await sendMessage(panel, 'Add a tool.');
    await clickInCard(panel, await pendingApproval(panel), 'Allow');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    expect(JSON.stringify(model.requests[0].body)).not.toContain('mcp_notes_extraTool');
    await sendMessage(panel, 'Use it.');
    expect(await waitForTurnEnd(panel, 1)).toBe('completed');
    expect(JSON.stringify(model.requests[2].body)).toContain('mcp_notes_extraTool');
    expect(mcp.calls.get('extraTool')).toBe(1);
    expect(JSON.stringify(model.requests[3].body)).toContain('extra');
    await panel.close();
  });

  it('fills in a server prompt from the composer’s / menu and sends its text as the message', async () => {
    const { model, session } = suite;
    model.clearRequests();
    model.setScript({ turns: [{ steps: [{ text: 'Planned.' }] }] });
    const panel = await session.openPanel();
    await panel.click('button::-p-text(New chat)');
    const box = 'textarea[aria-label="Message"]';
    await panel.type(box, '/pla');
    await panel.waitForSelector('ul.prompt-menu li[data-command="/notes:plan"][aria-selected="true"]');
    expect(await panel.$eval('ul.prompt-menu li[data-command="/notes:plan"]', (item) => item.textContent)).toContain(
      'topic= detail=?',
    );
    await panel.keyboard.press('Enter');
    expect(await panel.$eval(box, (area) => (area as HTMLTextAreaElement).value)).toBe('/notes:plan topic=');
    await panel.type(box, 'the garden party');
    await panel.keyboard.press('Enter');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    expect(JSON.stringify(model.requests[0].body)).toContain('Plan the garden party.');
    expect(await panel.$eval('article.turn', (turn) => turn.textContent)).toContain('Plan the garden party.');

    // A required argument left out: said, and the line comes back to the composer; nothing is sent.
    await panel.type(box, '/notes:plan');
    await panel.waitForSelector('ul.prompt-menu');
    await panel.keyboard.press('Escape');
    await panel.keyboard.press('Enter');
    await panel.waitForFunction(() => document.body.textContent?.includes('/notes:plan needs topic=…'));
    await panel.waitForFunction(
      (selector) => (document.querySelector(selector) as HTMLTextAreaElement).value === '/notes:plan',
      {},
      box,
    );
    expect(model.requests).toHaveLength(1);
    await panel.close();
  });
});
