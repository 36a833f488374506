import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedEndpointSettings } from '../support/scripted-endpoint-settings';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import {
  configureProfile,
  currentSessionId,
  launchExtension,
  readStoredLog,
  sendMessage,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';

const ANSWER = 'Back after the rate limit: speed unchanged.';

/** Gemini's free-tier 429: RESOURCE_EXHAUSTED with RetryInfo `retryDelay` in the body, no header; once, then the answer. */
function rateLimitedOnce(retryDelaySeconds: number) {
  return { turns: [{ steps: [{ error: { status: 429, retryDelaySeconds }, once: true }, { text: ANSWER }] }] };
}

describe('a 429 with a retry hint, through the real extension', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;

  beforeAll(async () => {
    server = await startScriptedModelServer();
    session = await launchExtension();
    await configureProfile(session, scriptedEndpointSettings('gemini', server.origin));
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it("waits the 2 s of Gemini's RetryInfo with a visible countdown, then answers", async () => {
    server.setScript(rateLimitedOnce(2));
    server.clearRequests();
    const panel = await session.openPanel();
    await sendMessage(panel, 'How fast are the particles?');
    await panel.waitForFunction(
      () => (document.querySelector('.retry-notice')?.textContent ?? '').includes('Retrying'),
      { polling: 50, timeout: 10_000 },
    );
    const notice = await panel.$eval('.retry-notice', (element) => element.textContent ?? '');
    expect(notice).toMatch(/Retrying in [12] s/);
    expect(notice).toContain('HTTP 429');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');

    expect(server.requests).toHaveLength(2);
    const waitedMs = server.requests[1].time - server.requests[0].time;
    console.log(`[retry] 429 with RetryInfo retryDelay "2s": the second request came ${waitedMs} ms after the first`);
    expect(waitedMs).toBeGreaterThanOrEqual(1500);
    expect(waitedMs).toBeLessThanOrEqual(4000);
    expect(
      await panel.$$eval('.assistant-message', (items) => items.map((item) => item.textContent).join('\n')),
    ).toContain(ANSWER);
    expect(await panel.$('.retry-notice')).toBeNull();
    expect(await panel.$('.turn-error')).toBeNull();
    await panel.close();
  });

  it('ends the turn cleanly when Stop is pressed during the wait, and sends nothing more', async () => {
    server.setScript(rateLimitedOnce(3));
    server.clearRequests();
    const panel = await session.openPanel();
    await panel.click('button::-p-text(New chat)');
    await sendMessage(panel, 'Make them faster.');
    await panel.waitForFunction(
      () => (document.querySelector('.retry-notice')?.textContent ?? '').includes('Retrying'),
      { polling: 50, timeout: 10_000 },
    );
    await panel.click('button.stop-button');
    expect(await waitForTurnEnd(panel, 0, 5_000)).toBe('aborted');
    expect(await panel.$('.retry-notice')).toBeNull();
    expect(await panel.$('.turn-error')).toBeNull();
    // Longer than the 3 s the endpoint asked for: a retry that was not cancelled would have arrived by now.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(server.requests).toHaveLength(1);
    const log = await readStoredLog(panel, await currentSessionId(panel));
    const types = log.map((row) => row.type);
    expect(types).toContain('turn/aborted');
    expect(types).not.toContain('stream/error');
    expect(types.filter((type) => type === 'step/started')).toHaveLength(1);
    await panel.close();
  });
});
