import { describe, expect, it } from 'vitest';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { startEverythingServer } from '../support/everything-server';
import { currentSessionId, sendMessage, storedRowsText, waitForTurnEnd } from './extension-harness';
import { extensionSuite } from './extension-suite';
import { enterMcpServer, openMcpSettings, saveMcpServer, testConnection } from './mcp-server-editor';

describe('the reference MCP server (server-everything), in Chromium', () => {
  const suite = extensionSuite({ model: () => startScriptedModelServer(), everything: () => startEverythingServer() });

  it('is tested and saved in Settings, and the model calls its tools: a sum, and an image kept as a BlobRef', async () => {
    const { model, everything, session } = suite;
    const options = await openMcpSettings(session);
    await enterMcpServer(options, 'Everything', everything.url);
    const report = await testConnection(options);
    expect(report[0]).toMatch(/^true ✓ Server: mcp-servers\/everything \S+$/);
    expect(report[1]).toContain('get-sum (read-only)');
    expect(report[1]).toContain('get-tiny-image (read-only)');
    expect(report[2]).toMatch(/^true Resources \(\d+\): demo:\/\//);
    expect(report[3]).toContain('simple-prompt');
    await saveMcpServer(options, 'Everything');
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
      const options = await openMcpSettings(suite.session);
      await enterMcpServer(options, 'Everything SSE', legacy.url);
      await options.select('select[aria-label="Transport"]', 'sse');
      const report = await testConnection(options);
      expect(report[0]).toMatch(/^true ✓ Server: mcp-servers\/everything \S+$/);
      expect(report[1]).toContain('get-sum (read-only)');
      await options.close();
    } finally {
      await legacy.close();
    }
  });
});
