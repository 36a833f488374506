import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { startMcpHttpServer, type McpHttpServer } from '../support/mcp-http-server';
import { launchFirefox, OTHER_REMOTE_TEST_HOST, type FirefoxSession } from './marionette';
import {
  firstTurnEnd,
  installBuild,
  openExtensionTab,
  sendFromComposer,
  switchToTab,
  until,
  useScriptedEndpoint,
} from './sidebar-page';

describe('an MCP server tool in Firefox ESR', () => {
  let model: ScriptedModelServer;
  let mcp: McpHttpServer;
  let firefox: FirefoxSession;
  let base: string;

  beforeAll(async () => {
    model = await startScriptedModelServer({
      script: {
        turns: [
          {
            steps: [
              { toolCalls: [{ name: 'mcp_notes_readNote', arguments: { title: 'shopping' }, id: 'read-1' }] },
              { text: 'Your note says: buy milk.' },
            ],
          },
        ],
      },
    });
    mcp = await startMcpHttpServer();
    firefox = await launchFirefox();
    base = await installBuild(firefox.marionette);
  }, 120_000);

  afterAll(async () => {
    await firefox?.close();
    await model?.close();
    await mcp?.close();
  });

  it('adds a server in Settings (Firefox asks for its host), tests it, and the model calls its read-only tool once', async () => {
    const marionette = firefox.marionette;
    await openExtensionTab(marionette, `${base}/options.html`);
    await until('the MCP section', () =>
      marionette.execute<boolean>("return Boolean(document.querySelector('section.mcp-servers'));"),
    );
    const url = `http://${OTHER_REMOTE_TEST_HOST}:${new URL(mcp.origin).port}/mcp`;
    await marionette.type('[aria-label="Server name"]', 'Notes');
    await marionette.type('[aria-label="Server URL"]', url);
    await marionette.click('.mcp-server-editor button[type="submit"]');
    await marionette.send('Marionette:SetContext', { value: 'chrome' });
    const asked = await until('the permission prompt', () =>
      marionette.execute<string | false>(
        "const notification = PopupNotifications.panel.querySelector('popupnotification'); return notification ? notification.textContent : false;",
      ),
    );
    expect(asked).toContain(OTHER_REMOTE_TEST_HOST);
    await marionette.execute(
      "PopupNotifications.panel.querySelector('popupnotification').button.click(); return true;",
    );
    await switchToTab(marionette, `${base}/options.html`);
    await marionette.click(
      "//button[contains(., 'Test connection')][ancestor::form[contains(@class, 'mcp-server-editor')]]",
      'xpath',
    );
    const report = await until('the test report', () =>
      marionette.execute<string | false>(
        "const check = document.querySelector('.mcp-server-editor .connection-check'); return check ? document.querySelector('.mcp-server-editor .connection-report').textContent : false;",
      ),
    );
    expect(report).toContain('✓ Server: splitbrain-test-server 1.2.3');
    expect(report).toContain('readNote (read-only)');
    expect(
      await until('the save', () =>
        marionette.execute<string | false>(
          "const text = document.querySelector('.mcp-server-editor .status')?.textContent ?? ''; return text.startsWith('Saved') ? text : false;",
        ),
      ),
    ).toBe('Saved Notes.');

    await openExtensionTab(marionette, `${base}/sidepanel.html`);
    await useScriptedEndpoint(marionette, model.url);
    await until('the composer', () =>
      marionette.execute<boolean>(
        'const area = document.querySelector(\'textarea[aria-label="Message"]\'); return Boolean(area) && !area.disabled;',
      ),
    );
    await sendFromComposer(marionette, 'What does my shopping note say?');
    expect(await firstTurnEnd(marionette)).toBe('completed');
    const cards = await marionette.execute<string[]>(
      "return [...document.querySelectorAll('section.tool-card')].map((card) => card.getAttribute('aria-label') + ':' + card.getAttribute('data-status'));",
    );
    expect(cards).toEqual(['Tool call mcp_notes_readNote:done']);
    expect(mcp.calls.get('readNote')).toBe(1);
    expect(JSON.stringify(model.requests[0].body)).toContain('Reads a note by its title.');
    expect(JSON.stringify(model.requests.at(-1)!.body)).toContain('Note shopping: buy milk.');
  }, 120_000);
});
