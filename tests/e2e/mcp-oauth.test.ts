import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { startMcpOAuthServer } from '../support/mcp-oauth-server';
import { currentSessionId, sendMessage, storedRowsText, storedSetting, waitForTurnEnd } from './extension-harness';
import { extensionSuite } from './extension-suite';
import {
  enterMcpServer,
  openMcpSettings,
  saveMcpServer,
  testConnection,
  waitForEditorStatus,
} from './mcp-server-editor';

type StoredOAuth = Record<string, { tokens?: { access_token: string } }>;

async function storedOAuth(page: Page): Promise<StoredOAuth> {
  return ((await storedSetting(page, 'mcpOAuth')) ?? {}) as StoredOAuth;
}

async function readNoteTurn(model: ScriptedModelServer, panel: Page, id: string): Promise<string> {
  model.clearRequests();
  model.setScript({
    turns: [
      {
        steps: [{ toolCalls: [{ name: 'mcp_notes_readNote', arguments: { title: id }, id }] }, { text: 'Read.' }],
      },
    ],
  });
  await panel.click('button::-p-text(New chat)');
  await sendMessage(panel, 'Read my note.');
  expect(await waitForTurnEnd(panel, 0)).toBe('completed');
  return JSON.stringify(model.requests[1].body);
}

describe('MCP OAuth in Chromium: launchWebAuthFlow against a local authorization server', () => {
  const suite = extensionSuite({ model: () => startScriptedModelServer(), auth: () => startMcpOAuthServer() });

  it('signs in from Test connection, calls a tool with the token, refreshes it, says so when it is revoked, and signs out', async () => {
    const { model, auth, session } = suite;
    const options = await openMcpSettings(session);
    await enterMcpServer(options, 'Notes', auth.mcpUrl);
    await options.select('select[aria-label="Authentication"]', 'oauth');
    const report = await testConnection(options);
    expect(report[0]).toBe('true ✓ Server: splitbrain-test-server 1.2.3');
    const redirect = `https://${session.extensionId}.chromiumapp.org/mcp`;
    expect(auth.log.registrations).toEqual([{ client_id: expect.any(String), redirect_uris: [redirect] }]);
    expect(auth.log.authorizations).toMatchObject([{ redirect_uri: redirect, code_challenge_method: 'S256' }]);
    expect(auth.log.grants).toEqual(['authorization_code']);
    const firstToken = (await storedOAuth(options)).notes?.tokens?.access_token;
    expect(firstToken).toMatch(/^access-/);

    await saveMcpServer(options, 'Notes');

    const panel = await session.openPanel();
    expect(await readNoteTurn(model, panel, 'one')).toContain('Note one: buy milk.');
    expect(auth.log.calls.get('readNote')).toBe(1);
    expect(auth.log.bearers.some((bearer) => bearer.accepted && bearer.token === firstToken)).toBe(true);
    const log = await storedRowsText(panel, await currentSessionId(panel));
    expect(log).toContain('mcp_notes_readNote');
    expect(log).not.toContain(firstToken);
    expect(log).not.toContain('refresh-');

    // The access token stops working: the worker refreshes it and calls again, with no sign-in window.
    auth.expireAccessTokens();
    expect(await readNoteTurn(model, panel, 'two')).toContain('Note two: buy milk.');
    expect(auth.log.grants).toEqual(['authorization_code', 'refresh_token']);
    expect(auth.log.authorizations).toHaveLength(1);
    expect((await storedOAuth(options)).notes?.tokens?.access_token).not.toBe(firstToken);

    // Everything revoked: the call fails with what to do, the model is told, nothing runs.
    auth.revokeAll();
    expect(await readNoteTurn(model, panel, 'three')).toContain(
      'Notes needs a sign-in: open Settings › MCP servers and press Test connection.',
    );
    expect(auth.log.calls.get('readNote')).toBe(2);

    // Signing in again from Settings mends it; signing out deletes the tokens.
    await options.bringToFront();
    expect((await testConnection(options))[0]).toBe('true ✓ Server: splitbrain-test-server 1.2.3');
    expect(auth.log.grants).toEqual(['authorization_code', 'refresh_token', 'authorization_code']);
    await options.click('.mcp-server-editor button::-p-text(Sign out)');
    await waitForEditorStatus(options, 'Signed out: the tokens are deleted from this browser.');
    expect((await storedOAuth(options)).notes).toBeUndefined();
    await panel.close();
    await options.close();
  });
});
