import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { startMcpOAuthServer, type McpOAuthServer } from '../support/mcp-oauth-server';
import { launchFirefox, type FirefoxSession } from './marionette';
import {
  firstTurnEnd,
  installBuild,
  openExtensionTab,
  sendFromComposer,
  until,
  useScriptedEndpoint,
} from './sidebar-page';

describe('MCP OAuth in Firefox ESR: launchWebAuthFlow against a local authorization server', () => {
  let model: ScriptedModelServer;
  let auth: McpOAuthServer;
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
    auth = await startMcpOAuthServer();
    firefox = await launchFirefox();
    base = await installBuild(firefox.marionette);
  }, 120_000);

  afterAll(async () => {
    await firefox?.close();
    await model?.close();
    await auth?.close();
  });

  it('signs in from Test connection, saves the server, and the model calls its tool with the token, kept out of the log', async () => {
    const marionette = firefox.marionette;
    await openExtensionTab(marionette, `${base}/options.html`);
    await until('the MCP section', () =>
      marionette.execute<boolean>("return Boolean(document.querySelector('section.mcp-servers'));"),
    );
    const redirect = await marionette.execute<string>("return browser.identity.getRedirectURL('mcp');");
    expect(redirect).toMatch(/^https:\/\/[0-9a-f]{40}\.extensions\.allizom\.org\/mcp$/);
    await marionette.type('[aria-label="Server name"]', 'Notes');
    await marionette.type('[aria-label="Server URL"]', auth.mcpUrl);
    await marionette.execute(
      `const select = document.querySelector('select[aria-label="Authentication"]');
       Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(select, 'oauth');
       select.dispatchEvent(new Event('change', { bubbles: true }));
       return true;`,
    );
    await marionette.click(
      "//button[contains(., 'Test connection')][ancestor::form[contains(@class, 'mcp-server-editor')]]",
      'xpath',
    );
    const report = await until('the test report', () =>
      marionette.execute<string[] | false>(
        `if (!document.querySelector('.mcp-server-editor .connection-check') || document.querySelector('.mcp-server-editor .spinner')) return false;
         return [...document.querySelectorAll('.mcp-server-editor .connection-check')].map((item) => item.getAttribute('data-ok') + ' ' + item.textContent);`,
      ),
    );
    expect(report[0]).toBe('true ✓ Server: splitbrain-test-server 1.2.3');
    expect(auth.log.registrations).toEqual([{ client_id: expect.any(String), redirect_uris: [redirect] }]);
    expect(auth.log.authorizations).toMatchObject([{ redirect_uri: redirect, code_challenge_method: 'S256' }]);
    expect(auth.log.grants).toEqual(['authorization_code']);
    const token = await marionette.execute<string | undefined>(
      "return (await browser.storage.local.get('mcpOAuth')).mcpOAuth?.notes?.tokens?.access_token;",
    );
    expect(token).toMatch(/^access-/);

    await marionette.click('.mcp-server-editor button[type="submit"]');
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
    expect(auth.log.calls.get('readNote')).toBe(1);
    expect(auth.log.bearers.some((bearer) => bearer.accepted && bearer.token === token)).toBe(true);
    expect(JSON.stringify(model.requests.at(-1)!.body)).toContain('Note shopping: buy milk.');
    const log = await marionette.execute<string>(
      `return await new Promise((resolve, reject) => {
         const request = indexedDB.open('splitbrain');
         request.onerror = () => reject(new Error(String(request.error)));
         request.onsuccess = () => {
           const rows = request.result.transaction('events').objectStore('events').getAll();
           rows.onsuccess = () => resolve(JSON.stringify(rows.result));
           rows.onerror = () => reject(new Error(String(rows.error)));
         };
       });`,
    );
    expect(log).toContain('mcp_notes_readNote');
    expect(log).not.toContain(token);
    expect(log).not.toContain('refresh-');
  }, 120_000);
});
