import { describe, expect, it } from 'vitest';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { startMcpOAuthServer } from '../support/mcp-oauth-server';
import { firefoxSuite } from './firefox-suite';
import {
  askForShoppingNote,
  clickTestConnection,
  enterMcpServer,
  openMcpSettings,
  READ_SHOPPING_NOTE,
  untilSaved,
} from './mcp-server-editor';
import { until } from './sidebar-page';

describe('MCP OAuth in Firefox ESR: launchWebAuthFlow against a local authorization server', () => {
  const suite = firefoxSuite({
    model: () => startScriptedModelServer({ script: READ_SHOPPING_NOTE }),
    auth: () => startMcpOAuthServer(),
  });

  it('signs in from Test connection, saves the server, and the model calls its tool with the token, kept out of the log', async () => {
    const { marionette, base, model, auth } = suite;
    await openMcpSettings(marionette, base);
    const redirect = await marionette.execute<string>("return browser.identity.getRedirectURL('mcp');");
    expect(redirect).toMatch(/^https:\/\/[0-9a-f]{40}\.extensions\.allizom\.org\/mcp$/);
    await enterMcpServer(marionette, 'Notes', auth.mcpUrl);
    await marionette.execute(
      `const select = document.querySelector('select[aria-label="Authentication"]');
       Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(select, 'oauth');
       select.dispatchEvent(new Event('change', { bubbles: true }));
       return true;`,
    );
    await clickTestConnection(marionette);
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
    expect(await untilSaved(marionette)).toBe('Saved Notes.');

    const { end, cards } = await askForShoppingNote(marionette, base, model.url);
    expect(end).toBe('completed');
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
