import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestPromptTokens } from '../../scripts/scripted-model-server/context-length-error';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import type { StreamableStep } from '../../scripts/scripted-model-server/script';
import { startPageServers, type PageServers } from '../support/static-page-server';
import { isSummaryRequest } from '../support/summary-request';
import {
  configureEndpoint,
  currentSessionId,
  launchExtension,
  readStoredLog,
  sendMessage,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';

/** The window the scripted endpoint enforces and the profile says (the reserve is the default eighth). */
const WINDOW_TOKENS = 32_768;
const ITEMS = 60;
const SUMMARY = 'SUMMARY: the user asked to open every item of the list in turn; the assistant opened them one by one.';

interface Observed {
  item: number;
  observationId: string;
  ref: string;
}

/** The observations of a request (OpenAI chat format) that went in full: observePage's own, or an action's fresh one. */
function observationsIn(body: unknown): Observed[] {
  const messages = (body as { messages?: { role: string; content?: unknown }[] }).messages ?? [];
  return messages.flatMap((message) => {
    if (message.role !== 'tool') return [];
    const result = JSON.parse(String(message.content)) as Record<string, unknown>;
    const observation = (result.observation ?? result) as { observationId?: string; snapshot?: string };
    const snapshot = observation.snapshot ?? '';
    const item = /heading "Item (\d+) of/.exec(snapshot)?.[1];
    const ref = /button "Open next item" \[ref=((?:f\d+)?e\d+)\]/.exec(snapshot)?.[1];
    return item && ref && observation.observationId
      ? [{ item: Number(item), observationId: observation.observationId, ref }]
      : [];
  });
}

/** A model that reads its prompt: it clicks "Open next item" on the newest item it sees, until the last one. */
function itemsModel(body: unknown): StreamableStep {
  const newest = observationsIn(body)
    .sort((left, right) => left.item - right.item)
    .at(-1);
  if (!newest) return { toolCalls: [{ id: `call-observe-${Date.now()}`, name: 'observePage', arguments: {} }] };
  if (newest.item === ITEMS) return { text: `Done: all ${ITEMS} items opened.` };
  return {
    text: `Opening item ${newest.item + 1}.`,
    toolCalls: [
      {
        id: `call-${newest.item}`,
        name: 'actOnPage',
        arguments: { observationId: newest.observationId, ref: newest.ref, action: 'click' },
      },
    ],
  };
}

describe(`a ${ITEMS}-step page task on a real page at a ${WINDOW_TOKENS}-token window, in Chromium`, () => {
  let pages: PageServers;
  let server: ScriptedModelServer;
  let session: ExtensionSession;
  let panel: Page;
  let web: Page;

  beforeAll(async () => {
    pages = await startPageServers();
    server = await startScriptedModelServer({
      contextWindowTokens: WINDOW_TOKENS,
      // Whole frames: sixty steps of small replies; the window is under test here, not chunking.
      minPieceBytes: 1 << 20,
      maxPieceBytes: 1 << 20,
      respond: (body) => (isSummaryRequest(body) ? { text: SUMMARY } : itemsModel(body)),
    });
    session = await launchExtension();
    await configureEndpoint(session, server.url, { contextWindowTokens: WINDOW_TOKENS });
    web = await session.browser.newPage();
    await web.goto(`${pages.origin}/item-list.html`);
    panel = await session.openPanel();
    await panel.waitForFunction(() => document.querySelector('.page-line-title')?.textContent === 'Item list', {
      timeout: 10_000,
    });
    // Sixty clicks: the site acts without asking (the page line's mode), as a user would set it for such a task.
    await panel.select('select.page-line-mode', 'allow');
  }, 60_000);

  afterAll(async () => {
    await session?.close();
    await server?.close();
    await pages?.close();
  });

  it('completes through observePage and actOnPage, aged and compacted, without one request over the window', async () => {
    await panel.bringToFront();
    await sendMessage(panel, `Open every one of the ${ITEMS} items of the list in turn, from the first to the last.`);
    expect(await waitForTurnEnd(panel, 0, 240_000)).toBe('completed');

    const summaries = server.requests.filter((request) => isSummaryRequest(request.body));
    const steps = server.requests.filter((request) => !isSummaryRequest(request.body));
    const tokens = steps.map((request) => requestPromptTokens(request.body));
    const first = observationsIn(steps[1].body)[0];
    const observationTokens = requestPromptTokens(
      (steps[1].body as { messages: { role: string; content: string }[] }).messages.at(-1)!.content,
    );
    console.log(
      `[context] ${ITEMS} items on a real page at ${WINDOW_TOKENS}: ${steps.length} step requests, ${summaries.length} summary requests, ${server.overWindow.length} refused; an observation ${observationTokens} tokens; prompts ${Math.min(...tokens)}–${Math.max(...tokens)}, last ${tokens.at(-1)}`,
    );
    expect(first.item).toBe(1);
    expect(observationTokens, 'each observation about 4,000 tokens').toBeGreaterThan(3_800);
    expect(server.overWindow, 'no request passed the window').toEqual([]);
    expect(await web.$eval('#heading', (heading) => heading.textContent)).toBe(`Item ${ITEMS} of ${ITEMS}`);
    // One observePage, 59 clicks, and the answer.
    expect(steps).toHaveLength(ITEMS + 1);
    expect(summaries.length, 'no compaction churn').toBeLessThanOrEqual(3);
    const last = JSON.stringify(steps.at(-1)!.body);
    expect(last).toContain(SUMMARY);
    expect(last, 'older observations went as stubs').toMatch(/Left out: observation [^ ]+ of this tab came after it/);
    expect(last, 'the first item long gone').not.toContain('Item 1 line 0 costs');

    const inspector = await session.browser.newPage();
    await inspector.goto(`chrome-extension://${session.extensionId}/options.html`);
    const rows = await readStoredLog(inspector, await currentSessionId(panel));
    await inspector.close();
    expect(rows.filter((row) => row.type === 'context/compacted')).toHaveLength(summaries.length);
    expect(rows.filter((row) => row.type === 'stream/error')).toEqual([]);
    expect(rows.filter((row) => row.type === 'tool/completed')).toHaveLength(ITEMS);
    await panel.waitForSelector('details.compaction-divider[data-method="model"]');
  }, 300_000);
});
