import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { lastLineOf, lineInView, longSessionLog } from '../support/long-session-log';
import { configureEndpoint, launchExtension, type ExtensionSession } from './extension-harness';
import { openNextInPanel, writeStoredSession } from './stored-session';

const TURNS = 300;

interface OpeningRecord {
  sawLoading: boolean;
  sawEmptyChat: boolean;
  composerSaidLoading: boolean;
}

/** Runs in the panel before its scripts: notes every view the panel showed while it opened. */
function recordOpening() {
  const record = { sawLoading: false, sawEmptyChat: false, composerSaidLoading: false };
  (globalThis as unknown as { openingRecord: typeof record }).openingRecord = record;
  new MutationObserver(() => {
    if (document.querySelector('.conversation-loading')) record.sawLoading = true;
    if (document.querySelector('.empty-conversation')) record.sawEmptyChat = true;
    const box = document.querySelector('textarea[aria-label="Message"]');
    if (box?.getAttribute('placeholder') === 'Loading the conversation…') record.composerSaidLoading = true;
  }).observe(document, { subtree: true, childList: true, attributes: true });
}

/** True once the element holding `line` is inside the list's visible area. */
async function openPanelRecording(session: ExtensionSession): Promise<Page> {
  const panel = await session.browser.newPage();
  await panel.setViewport({ width: 400, height: 720 });
  await panel.evaluateOnNewDocument(recordOpening);
  await panel.goto(`chrome-extension://${session.extensionId}/sidepanel.html`);
  return panel;
}

describe('opening a long conversation whose turns hold tool cards, code and tables', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;
  const sessionId = 'long-tool-turns';

  beforeAll(async () => {
    server = await startScriptedModelServer();
    session = await launchExtension(process.env.SPLITBRAIN_TEST_BUILD);
    await configureEndpoint(session, server.url);
    const page = await session.openPanel();
    await writeStoredSession(page, sessionId, longSessionLog(sessionId, TURNS), 'Long turns');
    await openNextInPanel(page, sessionId);
    await page.close();
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it.each(['warm', 'cold'])(
    'shows that it is loading, never the empty chat, then opens at the last line (%s worker)',
    async (worker) => {
      if (worker === 'cold') await session.stopServiceWorker();
      const started = Date.now();
      const panel = await openPanelRecording(session);
      await panel.waitForFunction(lineInView, { timeout: 30_000, polling: 50 }, lastLineOf(TURNS));
      const openedMs = Date.now() - started;
      // Measurements that land after the end is first shown must not leave it behind.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const settled = await panel.evaluate(lineInView, lastLineOf(TURNS));
      const record = await panel.evaluate(
        () => (globalThis as unknown as { openingRecord: OpeningRecord }).openingRecord,
      );
      const lastTurn = await panel.$$eval('article.turn', (turns) => {
        const last = turns.at(-1);
        return {
          toolCards: last?.querySelectorAll('.tool-card').length ?? 0,
          code: last?.querySelectorAll('pre').length ?? 0,
          tables: last?.querySelectorAll('table').length ?? 0,
        };
      });
      const newMessagesButton = await panel.$('.new-messages');
      console.log(`[open-at-latest] ${TURNS} long turns, ${worker} worker: last line on screen after ${openedMs} ms`);
      expect(settled).toBe(true);
      expect(newMessagesButton).toBeNull();
      expect(lastTurn).toEqual({ toolCards: 1, code: 1, tables: 1 });
      expect(record.sawEmptyChat).toBe(false);
      expect(record.sawLoading).toBe(true);
      expect(record.composerSaidLoading).toBe(true);
      expect(await panel.$eval('textarea[aria-label="Message"]', (box) => box.getAttribute('placeholder'))).not.toBe(
        'Loading the conversation…',
      );
      await panel.close();
    },
  );
});
