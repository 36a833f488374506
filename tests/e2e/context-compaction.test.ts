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
  readStoredLog,
  type ExtensionSession,
} from './extension-harness';

/** The window the scripted endpoint enforces and the profile says: a few of these messages fill it. */
const WINDOW_TOKENS = 12_000;
const RESERVE_TOKENS = 1_000;
const MESSAGES = 7;
const SUMMARY = 'SUMMARY: the user sent numbered records to keep; each was noted.';

describe('a conversation longer than the window', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;

  beforeAll(async () => {
    server = await startScriptedModelServer({
      script: { turns: [{ steps: [{ text: 'Noted.' }] }] },
      contextWindowTokens: WINDOW_TOKENS,
      // A summary request is answered as a model would, and takes no step of the script.
      respond: (body) => (isSummaryRequest(body) ? { text: SUMMARY } : undefined),
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
      await sendLongMessage(panel, records(index));
      expect(await lastTurnEnd(panel, `Record ${index}-199 keeps`)).toBe('completed');
    }
    const summaryRequests = server.requests.filter((request) => isSummaryRequest(request.body));
    const turnRequests = server.requests.filter((request) => !isSummaryRequest(request.body));
    const last = JSON.stringify(turnRequests.at(-1)!.body);
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
    await sendLongMessage(reopened, 'One more record: 42.');
    expect(await lastTurnEnd(reopened, 'One more record: 42.')).toBe('completed');
    const after = JSON.stringify(server.requests.filter((request) => !isSummaryRequest(request.body)).at(-1)!.body);
    expect(after).toContain(SUMMARY);
    expect(after).not.toContain('Record 0-0 keeps');
    expect(server.overWindow).toEqual([]);
  }, 240_000);

  it('compacts on demand from the meter: the turns before the last are summarised, and the next request starts there', async () => {
    const panel = await session.openPanel();
    await panel.waitForSelector('textarea[aria-label="Message"]');
    await panel.evaluate(() =>
      [...document.querySelectorAll('button')].find((button) => button.textContent?.includes('New chat'))!.click(),
    );
    await panel.waitForFunction(() => document.querySelectorAll('article.turn').length === 0);
    for (const text of ['Short one about apples', 'Short two about pears', 'Short three about plums']) {
      await sendLongMessage(panel, text);
      expect(await lastTurnEnd(panel, text)).toBe('completed');
    }
    const summariesBefore = server.requests.filter((request) => isSummaryRequest(request.body)).length;
    await panel.waitForSelector('button.context-compact');
    await panel.click('button.context-compact');
    await panel.waitForSelector('details.compaction-divider[data-trigger="user"]');
    expect(server.requests.filter((request) => isSummaryRequest(request.body)).length).toBe(summariesBefore + 1);
    expect(
      await panel.$eval('details.compaction-divider[data-trigger="user"] summary', (summary) => summary.textContent),
    ).toContain('on request');
    await panel.waitForFunction(
      () => Number(document.querySelector('.context-meter')?.getAttribute('data-compactions')) === 1,
    );

    await sendLongMessage(panel, 'After compacting');
    expect(await lastTurnEnd(panel, 'After compacting')).toBe('completed');
    const after = JSON.stringify(server.requests.filter((request) => !isSummaryRequest(request.body)).at(-1)!.body);
    expect(after, 'the next request starts from the summary').toContain(SUMMARY);
    expect(after, 'the summarised turns are not sent').not.toContain('Short one about apples');
    expect(after, 'the last turn before it is kept in full').toContain('Short three about plums');
  }, 120_000);
});
