import { describe, expect, it } from 'vitest';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { startMcpHttpServer } from '../support/mcp-http-server';
import { firefoxSuite } from './firefox-suite';
import { OTHER_REMOTE_TEST_HOST } from './marionette';
import {
  askForShoppingNote,
  clickTestConnection,
  enterMcpServer,
  openMcpSettings,
  READ_SHOPPING_NOTE,
  untilSaved,
} from './mcp-server-editor';
import { allowPermissionPrompt, switchToTab, until } from './sidebar-page';

describe('an MCP server tool in Firefox ESR', () => {
  const suite = firefoxSuite({
    model: () => startScriptedModelServer({ script: READ_SHOPPING_NOTE }),
    mcp: () => startMcpHttpServer(),
  });

  it('adds a server in Settings (Firefox asks for its host), tests it, and the model calls its read-only tool once', async () => {
    const { marionette, base, model, mcp } = suite;
    await openMcpSettings(marionette, base);
    const url = `http://${OTHER_REMOTE_TEST_HOST}:${new URL(mcp.origin).port}/mcp`;
    await enterMcpServer(marionette, 'Notes', url);
    await marionette.click('.mcp-server-editor button[type="submit"]');
    expect(await allowPermissionPrompt(marionette)).toContain(OTHER_REMOTE_TEST_HOST);
    await switchToTab(marionette, `${base}/options.html`);
    await clickTestConnection(marionette);
    const report = await until('the test report', () =>
      marionette.execute<string | false>(
        "const check = document.querySelector('.mcp-server-editor .connection-check'); return check ? document.querySelector('.mcp-server-editor .connection-report').textContent : false;",
      ),
    );
    expect(report).toContain('✓ Server: splitbrain-test-server 1.2.3');
    expect(report).toContain('readNote (read-only)');
    expect(await untilSaved(marionette)).toBe('Saved Notes.');

    const { end, cards } = await askForShoppingNote(marionette, base, model.url);
    expect(end).toBe('completed');
    expect(cards).toEqual(['Tool call mcp_notes_readNote:done']);
    expect(mcp.calls.get('readNote')).toBe(1);
    expect(JSON.stringify(model.requests[0].body)).toContain('Reads a note by its title.');
    expect(JSON.stringify(model.requests.at(-1)!.body)).toContain('Note shopping: buy milk.');
  }, 120_000);
});
