import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { COMPACTION_REQUEST } from '../../lib/context/summarise-history';
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

function records(index: number): string {
  return Array.from(
    { length: 200 },
    (_, line) => `Record ${index}-${line} keeps value ${(index * 7919 + line * 104_729) % 100_000}.`,
  ).join(' ');
}

async function send(panel: Page, text: string): Promise<void> {
  await panel.evaluate((value) => {
    const area = document.querySelector('textarea[aria-label="Message"]') as HTMLTextAreaElement;
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(area, value);
    area.dispatchEvent(new Event('input', { bubbles: true }));
  }, text);
  await panel.type('textarea[aria-label="Message"]', '.');
  await panel.click('button[type="submit"]');
}

async function lastTurnEnd(panel: Page, text: string): Promise<string> {
  await panel.waitForFunction(
    (wanted) => {
      const turn = [...document.querySelectorAll('article.turn')].at(-1);
      return !!turn?.textContent?.includes(wanted) && turn.getAttribute('data-status') !== 'running';
    },
    { timeout: 60_000, polling: 100 },
    text,
  );
  return panel.$$eval('article.turn', (turns) => turns.at(-1)?.getAttribute('data-status') ?? '');
}

const isSummaryRequest = (body: unknown) => JSON.stringify(body).includes(COMPACTION_REQUEST);

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
      await send(panel, records(index));
      const summarising = await new Promise<boolean>((resolve) => {
        const started = Date.now();
        const check = async () => {
          if (server.requests.filter((request) => isSummaryRequest(request.body)).length > before) return resolve(true);
          const status = await panel
            .$$eval('article.turn', (turns) => turns.at(-1)?.getAttribute('data-status'))
            .catch(() => 'running');
          if (status !== 'running' && Date.now() - started > 500) return resolve(false);
          setTimeout(check, 50);
        };
        void check();
      });
      if (summarising) break;
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
