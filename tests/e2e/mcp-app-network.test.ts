import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Frame, Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { startMcpHttpServer } from '../support/mcp-http-server';
import { NETWORK_APP_URI } from '../support/mcp-test-apps';
import {
  currentSessionId,
  sendMessage,
  storeMcpServers,
  storedRowsText,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';
import { extensionSuite } from './extension-suite';

/** The network app's frame once its first fetch has an outcome of the kind expected ("body" or "refused"). */
async function networkApp(
  session: ExtensionSession,
  kind: 'body' | 'refused',
): Promise<{ frame: Frame; outcome: string }> {
  const stage = await session.stagePage();
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const frame = stage.frames().find((candidate) => candidate.url().includes('/mcp-app-host.html'));
    const outcome = await frame?.evaluate(() => document.getElementById('outcome')?.textContent ?? '').catch(() => '');
    if (frame && outcome?.startsWith(`${kind}: `)) return { frame, outcome };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The network app showed no "${kind}" outcome.`);
}

function tryFetch(frame: Frame, url: string, method = 'GET'): Promise<string> {
  return frame.evaluate(
    (address, verb) =>
      fetch(address, verb === 'GET' ? {} : { method: verb, body: 'sent' }).then(
        (response) => response.text().then((text) => `body: ${text}`),
        (error: Error) => `refused: ${error.message}`,
      ),
    url,
    method,
  );
}

async function setStorage(session: ExtensionSession, value: Record<string, unknown>): Promise<void> {
  const page = await session.browser.newPage();
  await page.goto(`chrome-extension://${session.extensionId}/options.html`);
  await page.evaluate(
    (items) =>
      (
        globalThis as unknown as { chrome: { storage: { local: { set(value: unknown): Promise<void> } } } }
      ).chrome.storage.local.set(items),
    value,
  );
  await page.close();
}

async function buttonText(page: Page, selector: string, text: string): Promise<void> {
  await page.waitForFunction(
    (target, expected) => {
      const button = document.querySelector<HTMLButtonElement>(target);
      return button?.textContent === expected && !button.disabled;
    },
    { timeout: 15_000, polling: 50 },
    selector,
    text,
  );
}

describe('MCP App network access, in Chromium', () => {
  const otherHits: string[] = [];
  const suite = extensionSuite(
    {
      model: () => startScriptedModelServer(),
      mcp: () => startMcpHttpServer(),
      other: async () => {
        const other = createServer((request, response) => {
          otherHits.push(request.url ?? '');
          response.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'text/plain' }).end('other');
        });
        await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
        return {
          origin: `http://127.0.0.1:${(other.address() as AddressInfo).port}`,
          close: () => new Promise<void>((resolve) => other.close(() => resolve())),
        };
      },
    },
    ({ session, mcp }) => storeMcpServers(session, [{ id: 'apps', name: 'Apps', url: `${mcp.origin}/apps` }]),
  );

  it('reaches a declared origin only once the user grants it in the panel, never an undeclared one, and not after a revoke in Settings', async () => {
    const { model, mcp, other, session } = suite;
    // Another origin granted to this app and to another one (as if by an older grant): this app does not declare it.
    await setStorage(session, {
      mcpAppGrants: [
        { serverId: 'apps', resourceUri: NETWORK_APP_URI, origin: other.origin },
        { serverId: 'apps', resourceUri: 'ui://counter/app.html', origin: other.origin },
      ],
    });
    const dataUrl = `${mcp.origin}/data`;
    model.setScript({
      turns: [
        {
          steps: [
            { toolCalls: [{ name: 'mcp_apps_showNetworkApp', arguments: { url: dataUrl }, id: 'net-1' }] },
            { text: 'The network app is shown.' },
          ],
        },
      ],
    });
    const panel = await session.openPanel();
    await sendMessage(panel, 'Show the network app.');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    expect(JSON.stringify(model.requests[1].body)).toContain('connectDomainsNotGranted');

    // Before the grant: the app's own fetch is refused with the reason, and the server hears nothing.
    const before = await networkApp(session, 'refused');
    expect(before.outcome).toContain(`${mcp.origin} was not granted to this MCP App`);
    expect(mcp.calls.get('data')).toBeUndefined();
    expect(await tryFetch(before.frame, `${other.origin}/undeclared`)).toMatch(/^refused: /);

    // The panel's tool card asks for the declared origin (the wildcard one is never grantable, so not offered).
    const grantButton = `button[data-app-grant="${mcp.origin}"]`;
    await buttonText(panel, grantButton, 'Grant');
    expect(
      await panel.$$eval('button[data-app-grant]', (buttons) => [
        ...new Set(buttons.map((button) => button.dataset.appGrant)),
      ]),
    ).toEqual([mcp.origin]);
    // The stage tab came to the front with the app; headless Chromium gives a tab behind no clicks.
    await panel.bringToFront();
    await panel.click(grantButton);
    await buttonText(panel, grantButton, 'Revoke');

    // The app reopens admitted to it: its unmodified fetch gets the body through the stage's relay.
    const granted = await networkApp(session, 'body');
    expect(granted.outcome).toBe('body: network data for GET');
    expect(await tryFetch(granted.frame, dataUrl, 'POST')).toBe('body: network data for POST');
    expect(mcp.calls.get('data')).toBe(2);
    // Granted, but not declared by this resource: refused, and that server hears nothing.
    expect(await tryFetch(granted.frame, `${other.origin}/undeclared`)).toMatch(/^refused: .*is not among the origins/);
    expect(await tryFetch(granted.frame, `http://localhost:${new URL(mcp.origin).port}/data`)).toMatch(/^refused: /);
    expect(otherHits).toEqual([]);
    const stage = await session.stagePage();
    expect(await stage.$eval('#target-grants', (element) => element.textContent)).toBe(
      `Granted: network ${mcp.origin}`,
    );

    // Revoked in Settings: the app reopens without it and is refused again.
    const options = await session.browser.newPage();
    await options.goto(`chrome-extension://${session.extensionId}/options.html`);
    const revoke = `li[data-app-grant="apps ${NETWORK_APP_URI} ${mcp.origin}"] button`;
    await options.waitForSelector(revoke, { timeout: 15_000 });
    await options.click(revoke);
    await options.waitForFunction((selector) => !document.querySelector(selector), { timeout: 15_000 }, revoke);
    const revoked = await networkApp(session, 'refused');
    expect(revoked.outcome).toContain('was not granted to this MCP App');
    expect(await tryFetch(revoked.frame, dataUrl)).toMatch(/^refused: /);
    expect(mcp.calls.get('data')).toBe(2);
    await options.close();

    // The log holds what the app declared and was granted when it opened (relayed requests are not logged, as an
    // authored target's are not; a refused one reaches the model as the app's target error).
    const rows = await storedRowsText(panel, await currentSessionId(panel));
    expect(rows).toContain(`"connectDomainsNotGranted":["${mcp.origin}"]`);
    console.log(
      `[mcp app network] data requests while granted=${mcp.calls.get('data')}, undeclared-origin hits=${otherHits.length}, refused before grant and after revoke`,
    );
    await panel.close();
  });
});
