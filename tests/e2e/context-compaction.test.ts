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
  readStoredLog,
  type ExtensionSession,
} from './extension-harness';

/** The window the scripted endpoint enforces and the profile says: a few of these messages fill it. */
const WINDOW_TOKENS = 12_000;
const RESERVE_TOKENS = 1_000;
const MESSAGES = 7;
const SUMMARY = 'SUMMARY: the user sent numbered records to keep; each was noted.';

/** About 1,800 tokens of records no other message repeats. */
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

/** The list shows a window of the turns, so a turn is found by its text, as the last one. */
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

function requestText(body: unknown): string {
  return JSON.stringify(body);
}

describe('a conversation longer than the window', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;

  beforeAll(async () => {
    server = await startScriptedModelServer({
      script: { turns: [{ steps: [{ text: 'Noted.' }] }] },
      contextWindowTokens: WINDOW_TOKENS,
      // A summary request is answered as a model would, and takes no step of the script.
      respond: (body) => (requestText(body).includes(COMPACTION_REQUEST) ? { text: SUMMARY } : undefined),
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

  it('is compacted by the model before a request would pass the window, shows the divider, and goes on', async () => {
    const panel = await session.openPanel();
    await panel.waitForSelector('textarea[aria-label="Message"]');
    for (let index = 0; index < MESSAGES; index++) {
      await send(panel, records(index));
      expect(await lastTurnEnd(panel, `Record ${index}-199 keeps`)).toBe('completed');
    }
    const summaryRequests = server.requests.filter((request) => requestText(request.body).includes(COMPACTION_REQUEST));
    const turnRequests = server.requests.filter((request) => !requestText(request.body).includes(COMPACTION_REQUEST));
    const last = requestText(turnRequests.at(-1)!.body);
    console.log(
      `[context] ${MESSAGES} messages of about 1,800 tokens at a ${WINDOW_TOKENS}-token window: ${turnRequests.length} turn requests, ${summaryRequests.length} summary requests, ${server.overWindow.length} refused; last request ${last.length} characters`,
    );
    expect(server.overWindow, 'no request passed the window').toEqual([]);
    expect(summaryRequests.length).toBeGreaterThanOrEqual(1);
    expect(turnRequests).toHaveLength(MESSAGES);
    expect(last, 'the last request carries the summary').toContain(SUMMARY);
    expect(last, 'and not the first message').not.toContain('Record 0-0 keeps');
    expect(last, 'but the last message in full').toContain(`Record ${MESSAGES - 1}-199 keeps`);

    await panel.waitForSelector('details.compaction-divider[data-method="model"]');
    // The latest divider, opened as a click on its summary line opens it (an earlier one may be scrolled away).
    const opened = await panel.evaluate(() => {
      const divider = [...document.querySelectorAll<HTMLDetailsElement>('details.compaction-divider')].at(-1)!;
      divider.querySelector('summary')!.click();
      return { open: divider.open, summary: divider.querySelector('pre.compaction-summary')?.textContent };
    });
    expect(opened).toEqual({ open: true, summary: SUMMARY });

    const meter = await panel.$eval('.context-meter', (element) => ({
      used: Number(element.getAttribute('data-used-tokens')),
      limit: Number(element.getAttribute('data-limit-tokens')),
      compactions: Number(element.getAttribute('data-compactions')),
      text: element.textContent,
    }));
    console.log(`[context] meter: ${meter.text}`);
    expect(meter.limit, 'the window less the reserve').toBe(WINDOW_TOKENS - RESERVE_TOKENS);
    expect(meter.used).toBeGreaterThan(0);
    expect(meter.used, 'the last prompt, as the endpoint counted it, fit').toBeLessThanOrEqual(meter.limit);
    expect(meter.compactions).toBe(summaryRequests.length);
    await panel.evaluate(() =>
      [...document.querySelectorAll('details.compaction-divider')].at(-1)!.scrollIntoView({ block: 'start' }),
    );
    await panel.screenshot({ path: 'tests/screenshots/context-compaction.png' });

    const inspector = await session.browser.newPage();
    await inspector.goto(`chrome-extension://${session.extensionId}/options.html`);
    const rows = await readStoredLog(inspector, await currentSessionId(panel));
    const compactions = rows.filter((row) => row.type === 'context/compacted');
    expect(compactions.length).toBe(summaryRequests.length);
    await inspector.close();

    // A reloaded panel rebuilds the same history from the log: its next request still starts from the summary.
    const reopened = await session.openPanel();
    await reopened.waitForFunction(
      (text) => [...document.querySelectorAll('article.turn')].at(-1)?.textContent?.includes(text),
      {},
      `Record ${MESSAGES - 1}-199 keeps`,
    );
    await send(reopened, 'One more record: 42.');
    expect(await lastTurnEnd(reopened, 'One more record: 42.')).toBe('completed');
    const after = requestText(
      server.requests.filter((request) => !requestText(request.body).includes(COMPACTION_REQUEST)).at(-1)!.body,
    );
    expect(after).toContain(SUMMARY);
    expect(after).not.toContain('Record 0-0 keeps');
    expect(server.overWindow).toEqual([]);
  }, 240_000);
});
