import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { isSummaryRequest } from '../support/summary-request';
import { lastTurnEnd, records, sendLongMessage } from './long-messages';
import {
  configureEndpoint,
  currentSessionId,
  launchExtension,
  storedRowsText,
  type ExtensionSession,
} from './extension-harness';

const WINDOW_TOKENS = 12_000;
const RESERVE_TOKENS = 1_000;
const SUMMARY = 'SUMMARY: records were sent and noted.';
/** Between the summary's frames (about ten): the test stops the worker while the summary is still streaming. */
const SUMMARY_DELAY_MS = 400;

/**
 * Whether the turn of the message just sent asks for a summary before it ends. Its turn must be the last one shown
 * before its end counts: the turn before it, ended, is the last one until the new one appears.
 */
async function summaryBeforeTurnEnd(
  panel: Page,
  server: ScriptedModelServer,
  summariesBefore: number,
  messageStart: string,
): Promise<boolean> {
  const summaries = () => server.requests.filter((request) => isSummaryRequest(request.body)).length;
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    if (summaries() > summariesBefore) return true;
    const ended = await panel.$$eval(
      'article.turn',
      (turns, start) => {
        const last = turns.at(-1);
        return !!last?.textContent?.includes(start) && last.getAttribute('data-status') !== 'running';
      },
      messageStart,
    );
    // A summary is asked for before the turn's own request, so a turn that ended without one asked for none.
    if (ended) return summaries() > summariesBefore;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`The turn of "${messageStart}…" neither asked for a summary nor ended.`);
}

describe('a compaction when the service worker stops in the middle of its summary request', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;

  beforeAll(async () => {
    server = await startScriptedModelServer({
      script: { turns: [{ steps: [{ text: 'Noted.' }] }] },
      contextWindowTokens: WINDOW_TOKENS,
      respond: (body) => (isSummaryRequest(body) ? { text: SUMMARY, delayMs: SUMMARY_DELAY_MS } : undefined),
    });
    session = await launchExtension();
    await configureEndpoint(session, server.url, {
      contextWindowTokens: WINDOW_TOKENS,
      outputReserveTokens: RESERVE_TOKENS,
    });
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it('is recorded once, the turn completes once, and no turn is lost', async () => {
    const panel = await session.openPanel();
    await panel.waitForSelector('textarea[aria-label="Message"]');
    let index = 0;
    // Messages until one needs a compaction first; the worker is stopped while its summary request is held.
    for (; index < 8; index++) {
      const before = server.requests.filter((request) => isSummaryRequest(request.body)).length;
      await sendLongMessage(panel, records(index));
      if (await summaryBeforeTurnEnd(panel, server, before, `Record ${index}-0 keeps`)) break;
      expect(await lastTurnEnd(panel, `Record ${index}-199 keeps`)).toBe('completed');
    }
    expect(index, 'a message needed a compaction').toBeLessThan(8);
    const stoppedAt = Date.now();
    await session.stopServiceWorker();
    expect(await lastTurnEnd(panel, `Record ${index}-199 keeps`)).toBe('completed');
    const endedAfterMs = Date.now() - stoppedAt;

    const inspector = await session.browser.newPage();
    await inspector.goto(`chrome-extension://${session.extensionId}/options.html`);
    const rows = JSON.parse(await storedRowsText(inspector, await currentSessionId(panel))) as {
      event: { type: string; data: { compactionId?: string } };
    }[];
    await inspector.close();
    const compactions = rows.filter((row) => row.event.type === 'context/compacted');
    const compactionIds = compactions.map((row) => row.event.data.compactionId);
    const userMessages = rows.filter((row) => row.event.type === 'turn/started');
    const completedTurns = rows.filter((row) => row.event.type === 'turn/completed');
    console.log(
      `[context] worker stopped while the summary streamed, for message ${index}: ${compactions.length} compaction rows, ${userMessages.length} user messages, ${completedTurns.length} completed turns; the turn ended ${endedAfterMs} ms after the stop`,
    );
    expect(compactions.length).toBe(1);
    expect(new Set(compactionIds).size).toBe(compactionIds.length);
    expect(userMessages).toHaveLength(index + 1);
    expect(completedTurns).toHaveLength(index + 1);
    const last = server.requests.filter((request) => !isSummaryRequest(request.body)).at(-1)!.body;
    expect(JSON.stringify(last)).toContain(SUMMARY);
    expect(server.overWindow).toEqual([]);
  }, 240_000);
});
