import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { configureEndpoint, launchExtension, waitForTurnEnd, type ExtensionSession } from './extension-harness';

interface ShownNotification {
  notificationId: string;
  title: string;
  message: string;
  error?: string;
}

const openParticles = { toolCalls: [{ name: 'openTarget', arguments: { targetId: 'particles' } }] };
const resetCall = (id: string) => ({ toolCalls: [{ name: 'resetTarget', arguments: {}, id }] });

/** The background's test hook: the notifications it created (Puppeteer cannot see the system's). */
async function shownNotifications(session: ExtensionSession): Promise<ShownNotification[]> {
  const worker = await session.worker();
  return worker.evaluate(
    () => (globalThis as unknown as { splitbrainShownNotifications: ShownNotification[] }).splitbrainShownNotifications,
  );
}

function visibilityOf(page: Page): Promise<string> {
  return page.evaluate(() => document.visibilityState);
}

/** Puts text into the composer and submits it through the DOM, which works while the page is hidden. */
async function submitComposer(panel: Page, text: string): Promise<void> {
  await panel.$eval(
    'textarea[aria-label="Message"]',
    (textarea, value) => {
      const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
      setter.call(textarea, value);
      textarea.dispatchEvent(new Event('input', { bubbles: true }));
    },
    text,
  );
  await panel.waitForFunction(
    () => {
      const send = document.querySelector<HTMLButtonElement>('button[type="submit"]:not(:disabled)');
      send?.click();
      return send !== null;
    },
    { polling: 20, timeout: 5_000 },
  );
}

/** Waits for the pending approval card of a turn's call, and returns its request id. */
async function pendingApproval(panel: Page, known: string[]): Promise<string> {
  const handle = await panel.waitForFunction(
    (seen) =>
      [...document.querySelectorAll('section.approval-card[data-status="pending"]')]
        .map((card) => card.getAttribute('data-request-id') ?? '')
        .find((id) => id && !seen.includes(id)) ?? false,
    { polling: 100, timeout: 30_000 },
    known,
  );
  return (await handle.jsonValue()) as string;
}

async function allow(panel: Page, requestId: string): Promise<void> {
  await panel.$eval(`section[data-request-id="${requestId}"]`, (card) =>
    [...card.querySelectorAll('button')].find((button) => button.textContent?.trim() === 'Allow')?.click(),
  );
}

describe('browser notifications when the model waits, in Chromium', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;

  beforeAll(async () => {
    server = await startScriptedModelServer();
    session = await launchExtension();
    await configureEndpoint(session, server.url);
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it('notifies of an approval requested while the panel page is hidden, and of none while it is visible', async () => {
    const options = await session.browser.newPage();
    await options.goto(`chrome-extension://${session.extensionId}/options.html`);
    await options.evaluate(() =>
      (
        globalThis as unknown as { chrome: { storage: { local: { set(value: unknown): Promise<void> } } } }
      ).chrome.storage.local.set({
        approvalPolicy: { tools: { resetTarget: 'ask' }, expiresAfterSeconds: 120, questionExpiresAfterSeconds: 120 },
      }),
    );
    await options.click('input[name="browser-notifications"]');
    await options.click('button::-p-text(Save usage settings)');
    await options.waitForFunction(() => document.body.innerText.includes('Saved'), { timeout: 10_000 });
    const granted = await options.evaluate(() =>
      (
        globalThis as unknown as {
          chrome: { permissions: { contains(query: unknown): Promise<boolean> } };
        }
      ).chrome.permissions.contains({ permissions: ['notifications'] }),
    );
    expect(granted).toBe(true);
    await options.close();

    server.setScript({
      turns: [
        { steps: [openParticles, { text: 'Opened.' }] },
        { steps: [resetCall('reset-visible'), { text: 'Reset.' }] },
        { steps: [resetCall('reset-hidden'), { text: 'Reset again.' }] },
      ],
    });
    const panel = await session.openPanel();
    await submitComposer(panel, 'Open the particles.');
    await waitForTurnEnd(panel, 0);
    const stage = await session.stagePage();

    await panel.bringToFront();
    expect(await visibilityOf(panel)).toBe('visible');
    const before = (await shownNotifications(session)).length;
    await submitComposer(panel, 'Reset the particles.');
    const visibleRequest = await pendingApproval(panel, []);
    await allow(panel, visibleRequest);
    expect(await waitForTurnEnd(panel, 1)).toBe('completed');
    const whileVisible = (await shownNotifications(session)).slice(before);
    expect(whileVisible).toEqual([]);

    await stage.bringToFront();
    expect(await visibilityOf(panel)).toBe('hidden');
    await submitComposer(panel, 'Reset them again.');
    const hiddenRequest = await pendingApproval(panel, [visibleRequest]);
    const worker = await session.worker();
    await worker.evaluate(
      (requestId) =>
        new Promise<void>((resolve) => {
          const shown = (globalThis as unknown as { splitbrainShownNotifications: ShownNotification[] })
            .splitbrainShownNotifications;
          const check = () =>
            shown.some((notice) => notice.notificationId.endsWith(`:${requestId}`)) ? resolve() : setTimeout(check, 50);
          check();
        }),
      hiddenRequest,
    );
    const whileHidden = (await shownNotifications(session)).slice(before);
    console.log(`[e2e] notifications while hidden: ${JSON.stringify(whileHidden)}`);
    expect(whileHidden).toHaveLength(1);
    expect(whileHidden[0].title).toMatch(/^Splitbrain needs your approval: \S/);
    expect(whileHidden[0].notificationId).toMatch(/^splitbrain-waiting:approval:/);
    expect(whileHidden[0].error).toBeUndefined();
    await allow(panel, hiddenRequest);
    expect(await waitForTurnEnd(panel, 2)).toBe('completed');
    await panel.waitForFunction(() => document.querySelectorAll('article.turn[data-status="completed"]').length === 3);
    await worker.evaluate(
      (from) =>
        new Promise<void>((resolve) => {
          const shown = (globalThis as unknown as { splitbrainShownNotifications: ShownNotification[] })
            .splitbrainShownNotifications;
          const check = () =>
            shown.slice(from).some((notice) => notice.title === 'Splitbrain finished')
              ? resolve()
              : setTimeout(check, 50);
          check();
        }),
      before,
    );
    const afterTurn = (await shownNotifications(session)).slice(before);
    expect(afterTurn.map((notice) => notice.title.split(':')[0])).toEqual([
      'Splitbrain needs your approval',
      'Splitbrain finished',
    ]);
    expect(afterTurn[1].notificationId).toMatch(/^splitbrain-waiting:turn:/);
  });
});
