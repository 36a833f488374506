import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CDPSession, Page } from 'puppeteer-core';
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
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';

const REPLY = 'The particles keep their speed.';
/** How long the panel may take to report a failed write: the runtime client retries a little before it gives up. */
const REPORT_BOUND_MS = 10_000;
const QUOTA_BYTES = 1;
const LARGE_MESSAGE = `Store this: ${'x'.repeat(200_000)}`;

/** Chrome applies a quota override to IndexedDB a little later; a scratch database's write shows when it does. */
async function probeUntilQuotaEnforced(page: Page): Promise<number> {
  // Chrome takes about 20 s to apply it on an idle machine, longer under load; give it a minute.
  const deadline = Date.now() + 60_000;
  for (let probe = 1; Date.now() < deadline; probe++) {
    const refused = await page.evaluate(
      (size) =>
        new Promise<boolean>((resolve) => {
          const request = indexedDB.open('quota-probe');
          request.onupgradeneeded = () => request.result.createObjectStore('probe');
          request.onerror = () => resolve(false);
          request.onsuccess = () => {
            const database = request.result;
            const transaction = database.transaction('probe', 'readwrite');
            transaction.objectStore('probe').put('x'.repeat(size), 'probe');
            transaction.oncomplete = () => {
              database.close();
              indexedDB.deleteDatabase('quota-probe');
              resolve(false);
            };
            transaction.onabort = () => {
              database.close();
              resolve(transaction.error?.name === 'QuotaExceededError');
            };
          };
        }),
      LARGE_MESSAGE.length,
    );
    if (refused) return probe;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('Chrome never enforced the lowered quota.');
}

describe('IndexedDB refuses writes (quota exceeded)', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;
  let inspector: Page;
  let cdp: CDPSession;
  let origin: string;

  beforeAll(async () => {
    server = await startScriptedModelServer({ script: { turns: [{ steps: [{ text: REPLY }] }] } });
    session = await launchExtension();
    await configureEndpoint(session, server.url);
    origin = `chrome-extension://${session.extensionId}`;
    inspector = await session.browser.newPage();
    await inspector.goto(`${origin}/options.html`);
    cdp = await inspector.createCDPSession();
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it('reports the failed write in the panel, records and shows nothing that was not stored, keeps the message in the composer, opens on a worker started while the disk is full, and sends once space is back', async () => {
    const panel = await session.openPanel();
    await sendMessage(panel, 'First message.');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    const sessionId = await currentSessionId(panel);
    const before = await readStoredLog(inspector, sessionId);

    await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: QUOTA_BYTES });
    const probes = await probeUntilQuotaEnforced(inspector);
    // Chrome lets small writes through a lowered quota; a 200 KB message makes the runtime's write exceed it for certain.
    await panel.evaluate((text) => {
      const area = document.querySelector('textarea[aria-label="Message"]') as HTMLTextAreaElement;
      Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(area, text);
      area.dispatchEvent(new Event('input', { bubbles: true }));
    }, LARGE_MESSAGE);
    await panel.type('textarea[aria-label="Message"]', '.');
    await panel.waitForFunction(
      () => !(document.querySelector('button[type="submit"]') as HTMLButtonElement).disabled,
      { polling: 100, timeout: 10_000 },
    );
    const sent = Date.now();
    await panel.click('button[type="submit"]');
    await panel.waitForSelector('.panel-error[role="alert"]', { timeout: REPORT_BOUND_MS + 10_000 });
    const reportedAfterMs = Date.now() - sent;
    const shown = await panel.$eval('.panel-error[role="alert"]', (element) => element.textContent ?? '');
    await panel.waitForFunction(() => !document.querySelector('button.stop-button'), { polling: 100, timeout: 10_000 });
    const turnsShown = await panel.$$eval('article.turn', (turns) => turns.length);
    const during = await readStoredLog(inspector, sessionId);
    const composerText = await panel.$eval(
      'textarea[aria-label="Message"]',
      (area) => (area as HTMLTextAreaElement).value,
    );
    console.log(
      `[storage quota] quota set to ${QUOTA_BYTES} byte (enforced after ${probes} probe writes), message of ${LARGE_MESSAGE.length} characters; reported after ${reportedAfterMs} ms: "${shown}"; rows ${before.length} -> ${during.length}; turns shown ${turnsShown}`,
    );
    expect(reportedAfterMs).toBeLessThanOrEqual(REPORT_BOUND_MS);
    expect(shown).toContain(
      'The conversation could not be saved: the browser has no storage space left for the extension',
    );
    expect(during).toEqual(before);
    expect(turnsShown, 'no turn the log does not hold').toBe(1);
    expect(composerText, 'the unsent message is back in the composer').toBe(`${LARGE_MESSAGE}.`);

    // The worker stops while the disk is still full (Chrome stops an idle one after 30 s, as it may have during the
    // probes): the one that starts cannot write the conversation's snapshot, and still opens the conversation.
    await session.stopServiceWorker();
    const reopened = await session.openPanel();
    await reopened.waitForFunction(
      () => document.querySelectorAll('article.turn').length === 1 || document.querySelector('.connection-failed'),
      { polling: 100, timeout: 20_000 },
    );
    const failure = await reopened.$eval('.connection-failed', (banner) => banner.textContent).catch(() => undefined);
    expect(failure, 'a worker started on a full disk opens the conversation').toBeUndefined();
    expect(await reopened.$eval('article.turn .user-message', (message) => message.textContent)).toContain(
      'First message.',
    );

    await cdp.send('Storage.overrideQuotaForOrigin', { origin });
    // The user sends the same message again, as it was handed back, from the panel that opened on the new worker.
    await reopened.evaluate((text) => {
      const area = document.querySelector('textarea[aria-label="Message"]') as HTMLTextAreaElement;
      Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(area, text);
      area.dispatchEvent(new Event('input', { bubbles: true }));
    }, composerText);
    await reopened.click('button[type="submit"]');
    expect(await waitForTurnEnd(reopened, 1)).toBe('completed');
    const resent = await reopened.$$eval(
      'article.turn',
      (turns) => turns[1]?.querySelector('.user-message')?.textContent ?? '',
    );
    expect(resent).toContain('Store this: xxx');
    const after = await readStoredLog(inspector, sessionId);
    expect(after.map((row) => row.seq)).toEqual(after.map((_, index) => index + 1));
    expect(after.slice(0, before.length)).toEqual(before);
    await reopened.close();
    await panel.close();
  });
});
