import { describe, expect, it } from 'vitest';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { startMcpHttpServer } from '../support/mcp-http-server';
import {
  clickInCard,
  pendingApproval,
  currentSessionId,
  storeMcpServers,
  sendMessage,
  storedRowsText,
  waitForTurnEnd,
} from './extension-harness';
import { appFrame, textOf } from './mcp-app-harness';
import { extensionSuite } from './extension-suite';

describe('MCP Apps as targets, in Chromium', () => {
  const suite = extensionSuite(
    { model: () => startScriptedModelServer(), mcp: () => startMcpHttpServer() },
    ({ session, mcp }) => storeMcpServers(session, [{ id: 'apps', name: 'Apps', url: `${mcp.origin}/apps` }]),
  );

  it('shows the app of a tool in the stage with its input and result, and runs the app’s own call after the user approves it', async () => {
    const { model, mcp, session } = suite;
    model.setScript({
      turns: [
        {
          steps: [
            { toolCalls: [{ name: 'mcp_apps_showCounter', arguments: { start: 41 }, id: 'show-1' }] },
            { text: 'The counter is shown.' },
          ],
        },
      ],
    });
    const panel = await session.openPanel();
    await sendMessage(panel, 'Show me the counter at 41.');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    const firstRequest = JSON.stringify(model.requests[0].body);
    expect(firstRequest).toContain('mcp_apps_showCounter');
    // An app-only tool (visibility ["app"]) is not offered to the model.
    expect(firstRequest).not.toContain('mcp_apps_incrementCounter');
    expect(JSON.stringify(model.requests[1].body)).toContain('ui://counter/app.html');

    const frame = await appFrame(session, 'Counter');
    await frame.waitForFunction(() => document.getElementById('count')?.textContent === '41', { timeout: 15_000 });
    expect(await textOf(frame, '#input')).toBe('{"start":41}');
    expect(await textOf(frame, '#result-text')).toBe('The counter is at 41.');
    expect(await frame.evaluate(() => window.origin)).toBe('null');
    const hostContext = await frame.evaluate(
      () => (window as unknown as { hostContext: { platform: string } }).hostContext,
    );
    expect(hostContext.platform).toBe('web');
    const stage = await session.stagePage();
    expect(await stage.$eval('#target-title', (element) => element.textContent)).toBe('showCounter · MCP App of Apps');

    await frame.evaluate(() => document.getElementById('increment')!.click());
    const card = await pendingApproval(panel);
    expect(await panel.$eval(`section[data-request-id="${card}"]`, (element) => element.textContent)).toContain(
      'incrementCounter',
    );
    expect(mcp.calls.get('incrementCounter')).toBeUndefined();
    expect(await textOf(frame, '#call-result')).toBe('waiting for approval');
    await clickInCard(panel, card, 'Allow');
    await frame.waitForFunction(() => document.getElementById('count')?.textContent === '42', { timeout: 15_000 });
    expect(await textOf(frame, '#call-result')).toBe('The counter is at 42.');
    expect(mcp.calls.get('incrementCounter')).toBe(1);
    expect(mcp.calls.get('showCounter')).toBe(1);

    // In the log: which app the call opened, the result it got, and the app's own call with its approval.
    const rows = await storedRowsText(panel, await currentSessionId(panel));
    expect(rows).toContain('ui://counter/app.html');
    expect(rows).toContain('The counter is at 41.');
    expect(rows).toContain('mcp_apps_incrementCounter');
    expect(rows).toContain('The counter is at 42.');
    expect(rows).toContain('approval/decided');
    await panel.close();
  });

  it('answers a hostile app’s malformed messages, unknown methods and bad calls with JSON-RPC errors, blocks its fetch, and keeps working', async () => {
    const { model, mcp, session } = suite;
    model.clearRequests();
    model.setScript({
      turns: [
        {
          steps: [
            { toolCalls: [{ name: 'mcp_apps_showHostileApp', arguments: {}, id: 'hostile-1' }] },
            { text: 'Shown.' },
          ],
        },
        {
          steps: [
            { toolCalls: [{ name: 'mcp_apps_showCounter', arguments: { start: 7 }, id: 'show-2' }] },
            { text: 'Shown again.' },
          ],
        },
      ],
    });
    const panel = await session.openPanel();
    await panel.click('button::-p-text(New chat)');
    await sendMessage(panel, 'Show the hostile app.');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    const frame = await appFrame(session, 'hostile');
    await frame.waitForFunction(
      () => {
        const state = window as unknown as { appLog: { id?: unknown }[]; fetchOutcome?: string };
        return state.fetchOutcome !== undefined && state.appLog.some((message) => message.id === 6);
      },
      { timeout: 15_000 },
    );
    const answers = await frame.evaluate(
      () => (window as unknown as { appLog: { id?: unknown; error?: { code: number; message: string } }[] }).appLog,
    );
    const errorOf = (id: unknown) => answers.find((message) => message.id === id)?.error;
    expect(answers.filter((message) => message.id === null).map((message) => message.error?.code)).toEqual([
      -32600, -32600,
    ]);
    expect(errorOf(2)?.message).toBe('Call ui/initialize and send initialized first.');
    expect(answers.find((message) => message.id === 3)).toHaveProperty('result.protocolVersion');
    expect(errorOf(4)).toEqual({ code: -32601, message: 'Method not found: ui/open-everything.' });
    expect(errorOf(5)?.code).toBe(-32602);
    expect(errorOf(6)?.message).toBe("The app's server offers no tool named noSuchTool.");
    expect(errorOf(7)?.code).toBe(-32601);
    expect(await frame.evaluate(() => (window as unknown as { fetchOutcome: string }).fetchOutcome)).toMatch(
      /^blocked: /,
    );
    // Nothing the hostile app sent asked the user or reached the server.
    expect(await panel.$('section.approval-card[data-status="pending"]')).toBeNull();
    expect(mcp.calls.get('noSuchTool')).toBeUndefined();

    // The next app opens and gets its result as before.
    await sendMessage(panel, 'Now the counter at 7.');
    expect(await waitForTurnEnd(panel, 1)).toBe('completed');
    const counter = await appFrame(session, 'Counter');
    await counter.waitForFunction(() => document.getElementById('count')?.textContent === '7', { timeout: 15_000 });
    expect(JSON.stringify(model.requests.at(-1)!.body)).toContain('The counter is at 7.');
    await panel.close();
  });
});
