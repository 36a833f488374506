import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import {
  configureEndpoint,
  currentSessionId,
  launchExtension,
  readStoredLog,
  sendMessage,
  waitForStoredRows,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';

/** The runtime fails a job 1.5 s after its stage went away; 6 s leaves room for a loaded machine. */
const FAILED_CARD_BOUND_MS = 6_000;
const RUNS = 3;

describe('the stage tab is closed during a tool call', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;
  let inspector: Page;

  beforeAll(async () => {
    server = await startScriptedModelServer({
      script: {
        turns: [
          {
            steps: [
              { toolCalls: [{ name: 'openTarget', arguments: { targetId: 'slow-counter' } }] },
              { toolCalls: [{ name: 'setParameter', arguments: { param: 'count', value: 7 } }] },
              { text: 'The stage went away before the counter changed.' },
            ],
          },
        ],
      },
    });
    session = await launchExtension();
    await configureEndpoint(session, server.url);
    inspector = await session.browser.newPage();
    await inspector.goto(`chrome-extension://${session.extensionId}/options.html`);
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it('fails the call with a clear error within the bound, and the turn goes on to its end', async () => {
    const report: string[] = [];
    let hits = 0;
    let missed = 0;
    for (let attempt = 0; hits < RUNS && attempt < RUNS * 2; attempt++) {
      const panel = await session.openPanel();
      await panel.click('button::-p-text(New chat)');
      await sendMessage(panel, 'Set the slow counter to 7.');
      const sessionId = await currentSessionId(panel);
      await waitForStoredRows(inspector, sessionId, 'tool/started', 2);
      const stage = await session.stagePage();
      const rows = await readStoredLog(inspector, sessionId);
      expect(rows.filter((row) => row.type === 'tool/started')).toHaveLength(2);
      // On a loaded machine the target may get ready (2 s) before the stage is closed; such a run tests nothing and is counted apart.
      if (rows.filter((row) => row.type === 'tool/completed').length > 1) {
        missed++;
        report.push(`attempt ${attempt + 1}: the call finished before the stage could be closed (not counted)`);
        await waitForTurnEnd(panel, 0, 20_000);
        await panel.close();
        continue;
      }
      const closed = Date.now();
      await stage.close();
      await panel.waitForFunction(
        () =>
          ['failed', 'done'].includes(
            document.querySelectorAll('section.tool-card')[1]?.getAttribute('data-status') ?? '',
          ),
        { polling: 50, timeout: FAILED_CARD_BOUND_MS + 10_000 },
      );
      const failedAfterMs = Date.now() - closed;
      if ((await panel.$$eval('section.tool-card', (cards) => cards[1].getAttribute('data-status'))) === 'done') {
        missed++;
        report.push(`attempt ${attempt + 1}: the target applied the change just before the stage closed (not counted)`);
        await waitForTurnEnd(panel, 0, 20_000);
        await panel.close();
        continue;
      }
      hits++;
      const error = await panel.$$eval(
        'section.tool-card',
        (cards) => cards[1].querySelector('.tool-summary, .tool-error')?.textContent ?? cards[1].textContent ?? '',
      );
      const status = await waitForTurnEnd(panel, 0, 20_000);
      report.push(
        `attempt ${attempt + 1}: call failed ${failedAfterMs} ms after the stage closed, turn ${status}: ${error}`,
      );
      expect(failedAfterMs).toBeLessThanOrEqual(FAILED_CARD_BOUND_MS);
      expect(error).toContain('The stage tab was closed before the target answered');
      expect(status).toBe('completed');
      const toolMessage = (server.requests.at(-1)!.body as { messages: { role: string; content: string }[] }).messages
        .filter((message) => message.role === 'tool')
        .at(-1)!;
      expect(toolMessage.content).toContain('The stage tab was closed');
      await panel.close();
    }
    console.log(
      `[stage tab closed mid-call] bound ${FAILED_CARD_BOUND_MS} ms\n${report.join('\n')}\nruns: ${hits} (${missed} attempts missed the window), failures: 0`,
    );
    expect(hits).toBe(RUNS);
  });
});
