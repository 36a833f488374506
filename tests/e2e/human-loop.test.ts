import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import {
  configureEndpoint,
  currentSessionId,
  launchExtension,
  readStoredLog,
  clickInCard,
  sendMessage,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';

interface CardView {
  requestId: string;
  status: string;
}

interface ChatMessage {
  role: string;
  content?: unknown;
}

const LONG_TEXT = Array.from({ length: 40 }, (_, index) => `word${index}`).join(' ');

function messagesOf(server: ScriptedModelServer, index: number): ChatMessage[] {
  return (server.requests[index].body as { messages: ChatMessage[] }).messages;
}

async function cards(panel: Page, kind: 'approval' | 'ask'): Promise<CardView[]> {
  return panel.$$eval(`section.${kind}-card`, (sections) =>
    sections.map((section) => ({
      requestId: section.getAttribute('data-request-id') ?? '',
      status: section.getAttribute('data-status') ?? '',
    })),
  );
}

/** Waits for a pending card that is not one of `seen`, and returns its request id. */
async function nextPendingCard(
  panel: Page,
  kind: 'approval' | 'ask',
  seen: string[] = [],
  timeout = 30_000,
): Promise<string> {
  const handle = await panel.waitForFunction(
    (selector, known) => {
      const card = [...document.querySelectorAll(selector)].find(
        (section) =>
          section.getAttribute('data-status') === 'pending' &&
          !known.includes(section.getAttribute('data-request-id') ?? ''),
      );
      return card?.getAttribute('data-request-id') ?? false;
    },
    { polling: 100, timeout },
    `section.${kind}-card`,
    seen,
  );
  return (await handle.jsonValue()) as string;
}

async function waitForCardStatus(panel: Page, requestId: string, status: string, timeout = 30_000): Promise<void> {
  await panel.waitForFunction(
    (id, wanted) => document.querySelector(`section[data-request-id="${id}"]`)?.getAttribute('data-status') === wanted,
    { polling: 100, timeout },
    requestId,
    status,
  );
}

/**
 * Two panels answering at once: clicks the button while the card is pending, or reports that the other panel's
 * answer decided it first (its buttons are then gone or disabled, and there is nothing left to click).
 */
async function clickInCardUnlessDecided(panel: Page, requestId: string, label: string): Promise<'clicked' | 'decided'> {
  const handle = await panel.waitForFunction(
    (id, text) => {
      const card = document.querySelector(`section[data-request-id="${id}"]`);
      if (card && card.getAttribute('data-status') !== 'pending') return 'decided';
      const button = [...(card?.querySelectorAll<HTMLButtonElement>('button') ?? [])].find(
        (candidate) => candidate.textContent?.trim() === text && !candidate.disabled,
      );
      button?.click();
      return button ? 'clicked' : false;
    },
    { polling: 100, timeout: 10_000 },
    requestId,
    label,
  );
  return (await handle.jsonValue()) as 'clicked' | 'decided';
}

async function resetCount(session: ExtensionSession): Promise<number> {
  const frame = await session.targetFrame('particles');
  return frame.evaluate(
    () =>
      (window as unknown as { SplitbrainBridge: { debug: { resetCount: number } } }).SplitbrainBridge.debug.resetCount,
  );
}

async function setPolicy(session: ExtensionSession, policy: Record<string, unknown>): Promise<void> {
  const page = await session.browser.newPage();
  await page.goto(`chrome-extension://${session.extensionId}/options.html`);
  await page.evaluate(
    (value) =>
      (
        globalThis as unknown as { chrome: { storage: { local: { set(value: unknown): Promise<void> } } } }
      ).chrome.storage.local.set({ approvalPolicy: value }),
    policy,
  );
  await page.close();
}

async function runtimeRequest(
  page: Page,
  request: Record<string, unknown>,
): Promise<{ ok: boolean; result?: Record<string, unknown>; error?: string }> {
  return page.evaluate(
    (message) =>
      (
        globalThis as unknown as {
          chrome: {
            runtime: {
              sendMessage(message: unknown): Promise<{ ok: boolean; result?: Record<string, unknown>; error?: string }>;
            };
          };
        }
      ).chrome.runtime.sendMessage(message),
    request,
  );
}

/** Puts text into the composer and submits it at once (typing key by key can outlast a short tool call). */
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

async function turnIds(panel: Page): Promise<string[]> {
  return panel.$$eval('article.turn', (turns) => turns.map((turn) => turn.getAttribute('data-turn-id') ?? ''));
}

const openParticles = { toolCalls: [{ name: 'openTarget', arguments: { targetId: 'particles' } }] };
const resetCall = (id: string) => ({ name: 'resetTarget', arguments: {}, id });

describe('people in the loop, in Chromium', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;

  beforeAll(async () => {
    server = await startScriptedModelServer();
    session = await launchExtension();
    await configureEndpoint(session, server.url);
    await setPolicy(session, { tools: { resetTarget: 'ask' }, expiresAfterSeconds: 5, questionExpiresAfterSeconds: 5 });
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  beforeEach(() => server.clearRequests());

  it('runs resetTarget only when allowed: a denied and an expired call never run, the model is told, the allowed one runs once', async () => {
    server.setScript({
      turns: [
        {
          steps: [
            openParticles,
            { toolCalls: [resetCall('reset-1'), resetCall('reset-2'), resetCall('reset-3')] },
            { text: 'Done.' },
          ],
        },
      ],
    });
    const panel = await session.openPanel();
    await sendMessage(panel, 'Reset the particles three times.');
    const first = await nextPendingCard(panel, 'approval');
    expect(await resetCount(session)).toBe(0);
    await panel.bringToFront();
    expect(await panel.$(`section[data-request-id="${first}"] ::-p-aria([name="Deny"][role="button"])`)).not.toBeNull();
    await clickInCard(panel, first, 'Deny');
    const second = await nextPendingCard(panel, 'approval', [first]);
    const shownAt = Date.now();
    await waitForCardStatus(panel, second, 'expired', 20_000);
    const expiredAfterMs = Date.now() - shownAt;
    const third = await nextPendingCard(panel, 'approval', [first, second]);
    await panel.bringToFront();
    await clickInCard(panel, third, 'Allow');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');

    const executions = await resetCount(session);
    console.log(
      `[e2e] approvals: 3 resetTarget calls, 1 denied, 1 expired after ${expiredAfterMs} ms (policy 5 s), 1 allowed; executions without approval: ${executions - 1}`,
    );
    expect(executions).toBe(1);
    const statuses = await panel.$$eval('section.tool-card[aria-label="Tool call resetTarget"]', (sections) =>
      sections.map((section) => section.getAttribute('data-status')),
    );
    expect(statuses).toEqual(['denied', 'denied', 'done']);
    const results = messagesOf(server, 2)
      .filter((message) => message.role === 'tool')
      .map((message) => String(message.content));
    expect(results.slice(-3).map((result) => JSON.parse(result) as { ok: boolean; denied?: boolean })).toMatchObject([
      { ok: false, denied: true },
      { ok: false, denied: true },
      { ok: true },
    ]);
    await panel.close();
  });

  it('counts one answer when two panels answer at once, and a reloaded panel shows the same pending request', async () => {
    server.setScript({
      turns: [{ steps: [openParticles, { toolCalls: [resetCall('reset-double')] }, { text: 'Done.' }] }],
    });
    await setPolicy(session, {
      tools: { resetTarget: 'ask' },
      expiresAfterSeconds: 120,
      questionExpiresAfterSeconds: 120,
    });
    const driver = await session.openPanel();
    await driver.click('button::-p-text(New chat)');
    await sendMessage(driver, 'Reset the particles.');
    const requestId = await nextPendingCard(driver, 'approval');
    // Counted from here: openTarget (which may reload the frame) has run, the reset has not.
    const before = await resetCount(session);
    const viewer = await session.openPanel();
    expect(await nextPendingCard(viewer, 'approval')).toBe(requestId);
    await viewer.reload();
    expect(await nextPendingCard(viewer, 'approval')).toBe(requestId);

    const clicks = await Promise.all([
      clickInCardUnlessDecided(driver, requestId, 'Allow'),
      clickInCardUnlessDecided(viewer, requestId, 'Deny'),
    ]);
    expect(clicks).toContain('clicked');
    expect(await waitForTurnEnd(driver, 0)).toBe('completed');

    const sessionId = await currentSessionId(driver);
    const decisions = (await readStoredLog(driver, sessionId)).filter((row) => row.type === 'approval/decided');
    const [driverView] = await cards(driver, 'approval');
    await waitForCardStatus(viewer, requestId, driverView.status);
    const executed = (await resetCount(session)) - before;
    console.log(
      `[e2e] double answer: ${clicks.join(' and ')} in 2 panels, ${decisions.length} decision recorded (${driverView.status}), ${executed} execution`,
    );
    expect(decisions).toHaveLength(1);
    expect(executed).toBe(driverView.status === 'allowed' ? 1 : 0);
    await viewer.close();
    await driver.close();
  });

  it('after a service-worker restart a pending approval expires and is asked again with a new id; it never runs by default', async () => {
    server.setScript({
      turns: [{ steps: [openParticles, { toolCalls: [resetCall('reset-restart')] }, { text: 'Done.' }] }],
    });
    const panel = await session.openPanel();
    await panel.click('button::-p-text(New chat)');
    await sendMessage(panel, 'Reset the particles.');
    const first = await nextPendingCard(panel, 'approval');
    const before = await resetCount(session);
    await session.stopServiceWorker();
    const second = await nextPendingCard(panel, 'approval', [first]);
    await waitForCardStatus(panel, first, 'expired');
    expect(await resetCount(session)).toBe(before);
    await panel.bringToFront();
    await clickInCard(panel, second, 'Allow');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    expect((await resetCount(session)) - before).toBe(1);
    await panel.close();
  });

  it('keeps a question answerable across a disconnect, checks the answer, and an expired one is never filled in', async () => {
    server.setScript({
      turns: [
        {
          steps: [
            {
              toolCalls: [
                {
                  name: 'askUser',
                  arguments: { question: 'Which palette?', answerType: 'choice', choices: ['warm', 'cold'] },
                },
              ],
            },
            { text: 'Cold palette it is.' },
          ],
        },
        {
          steps: [
            { toolCalls: [{ name: 'askUser', arguments: { question: 'How many particles?', answerType: 'number' } }] },
            { text: 'I need that number to go on.' },
          ],
        },
      ],
    });
    await setPolicy(session, {
      tools: { resetTarget: 'ask' },
      expiresAfterSeconds: 120,
      questionExpiresAfterSeconds: 5,
    });
    const panel = await session.openPanel();
    await panel.click('button::-p-text(New chat)');
    await sendMessage(panel, 'Pick a palette with me.');
    const question = await nextPendingCard(panel, 'ask');
    await session.stopServiceWorker();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await nextPendingCard(panel, 'ask')).toBe(question);
    await panel.bringToFront();
    await panel.click(`section[data-request-id="${question}"] input[value="cold"]`);
    await clickInCard(panel, question, 'Answer');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    const answered = messagesOf(server, 1)
      .filter((message) => message.role === 'tool')
      .map((message) => JSON.parse(String(message.content)) as unknown);
    expect(answered).toEqual([{ ok: true, answer: 'cold' }]);

    await submitComposer(panel, 'Now the count.');
    const unanswered = await nextPendingCard(panel, 'ask', [question]);
    await waitForCardStatus(panel, unanswered, 'expired', 20_000);
    expect(await waitForTurnEnd(panel, 1)).toBe('completed');
    const toldModel =
      messagesOf(server, 3)
        .filter((message) => message.role === 'tool')
        .map((message) => String(message.content))
        .at(-1) ?? '';
    expect(toldModel).toMatch(/Do not guess/);
    expect(toldModel).not.toMatch(/"answer"/);
    await panel.close();
  });

  it('applies steers at the next safe point (sent during the stream and during a tool call), a withdrawn one never, and marks one for an ended turn stale', async () => {
    server.setScript({
      turns: [
        {
          steps: [
            {
              text: LONG_TEXT,
              delayMs: 25,
              toolCalls: [{ name: 'openTarget', arguments: { targetId: 'particles' } }, resetCall('reset-steer')],
            },
            { text: 'Adjusted.' },
          ],
        },
        { steps: [{ text: 'Second turn.' }] },
      ],
    });
    const panel = await session.openPanel();
    await panel.click('button::-p-text(New chat)');
    await sendMessage(panel, 'Reset the particles.');
    await panel.waitForFunction(
      () => (document.querySelector('.assistant-message')?.textContent ?? '').includes('word5'),
      { polling: 50, timeout: 20_000 },
    );
    await submitComposer(panel, 'steer during the stream');
    await panel
      .waitForFunction(() => document.querySelector('.steer-row')?.textContent?.includes('Queued'), {
        polling: 50,
        timeout: 10_000,
      })
      .catch(async (error: unknown) => {
        throw new Error(`${String(error)}\n${await panel.$eval('body', (body) => body.innerText)}`);
      });
    // The reset waits for approval: a tool call that is certainly still running when the second steer is sent.
    const approval = await nextPendingCard(panel, 'approval');
    await submitComposer(panel, 'steer during the tool call');
    await panel
      .waitForFunction(() => document.querySelectorAll('.steer-row').length === 2, { polling: 50, timeout: 10_000 })
      .catch(async (error: unknown) => {
        throw new Error(`${String(error)}\n${await panel.$eval('body', (body) => body.innerText)}`);
      });
    expect(await panel.$$eval('.steer-row', (rows) => rows.map((row) => row.getAttribute('data-state')))).toEqual([
      'queued',
      'queued',
    ]);
    // A third one, taken back before the safe point: it leaves the turn and its text returns to the composer.
    await submitComposer(panel, 'steer to withdraw');
    await panel.waitForFunction(() => document.querySelectorAll('.steer-row').length === 3, {
      polling: 50,
      timeout: 10_000,
    });
    await panel.evaluate(() => [...document.querySelectorAll<HTMLButtonElement>('.steer-withdraw')].at(-1)!.click());
    await panel.waitForFunction(() => document.querySelectorAll('.steer-row').length === 2, {
      polling: 50,
      timeout: 10_000,
    });
    expect(await panel.$eval('textarea[aria-label="Message"]', (area) => (area as HTMLTextAreaElement).value)).toBe(
      'steer to withdraw',
    );
    await clickInCard(panel, approval, 'Allow');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');

    const firstRequest = JSON.stringify(messagesOf(server, 0));
    expect(firstRequest).not.toContain('steer during');
    const secondRequest = messagesOf(server, 1).map(
      (message) => `${message.role}:${typeof message.content === 'string' ? message.content : ''}`,
    );
    expect(secondRequest.slice(-3, -2)[0]).toMatch(/^tool:/);
    expect(secondRequest.slice(-2)).toEqual(['user:steer during the stream', 'user:steer during the tool call']);
    expect(JSON.stringify(messagesOf(server, 1))).not.toContain('steer to withdraw');
    const states = await panel.$$eval('.steer-row', (rows) => rows.map((row) => row.getAttribute('data-state')));
    expect(states).toEqual(['applied', 'applied']);

    const [endedTurn] = await turnIds(panel);
    const sessionId = await currentSessionId(panel);
    const late = await runtimeRequest(panel, {
      type: 'command/submit',
      kind: 'steer',
      sessionId,
      turnId: endedTurn,
      commandId: 'late-steer',
      text: 'too late',
    });
    expect(late.result).toMatchObject({ state: 'stale', turnStatus: 'completed' });
    await submitComposer(panel, 'And another thing.');
    expect(await waitForTurnEnd(panel, 1)).toBe('completed');
    expect(JSON.stringify(messagesOf(server, 2))).not.toContain('too late');
    await panel.close();
  });

  it('never loses an addition the turn did not read: sent as the next message when the turn completed, back in the composer when it was stopped', async () => {
    // The second step repeats the first one's call, so the turn ends at the guard without a safe point after it.
    server.setScript({
      turns: [
        { steps: [{ toolCalls: [openParticles.toolCalls[0]] }, { text: LONG_TEXT, delayMs: 25, ...openParticles }] },
        { steps: [{ text: 'Read it.' }] },
        { steps: [{ text: LONG_TEXT, delayMs: 60 }] },
      ],
    });
    const panel = await session.openPanel();
    await panel.click('button::-p-text(New chat)');
    await sendMessage(panel, 'Open the particles.');
    await panel.waitForFunction(
      () => (document.querySelector('.assistant-message')?.textContent ?? '').includes('word5'),
      { polling: 50, timeout: 20_000 },
    );
    await submitComposer(panel, 'and make them faster');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    expect(await waitForTurnEnd(panel, 1)).toBe('completed');
    const [guarded, next] = await turnIds(panel);
    expect(
      await panel.$eval(`article[data-turn-id="${guarded}"] .steer-row`, (row) => row.getAttribute('data-state')),
    ).toBe('stale');
    expect(await panel.$eval(`article[data-turn-id="${next}"] .user-message`, (message) => message.textContent)).toBe(
      'and make them faster',
    );
    expect(messagesOf(server, 2).at(-1)).toEqual({ role: 'user', content: 'and make them faster' });
    expect(server.requests).toHaveLength(3);

    // Stopped with an addition queued: nothing is sent without the user, and the text is back in the composer.
    await sendMessage(panel, 'Tell me a long story.');
    await panel.waitForFunction(
      () => ([...document.querySelectorAll('.assistant-message')].at(-1)?.textContent ?? '').includes('word5'),
      { polling: 50, timeout: 20_000 },
    );
    await submitComposer(panel, 'in French');
    await panel.waitForFunction(
      () => [...document.querySelectorAll('article.turn')].at(-1)?.querySelector('.steer-row[data-state="queued"]'),
      { polling: 50, timeout: 10_000 },
    );
    await panel.bringToFront();
    await panel.click('::-p-aria([name="Stop"][role="button"])');
    expect(await waitForTurnEnd(panel, 2)).toBe('aborted');
    await panel.waitForFunction(
      () => (document.querySelector('textarea[aria-label="Message"]') as HTMLTextAreaElement).value === 'in French',
      { polling: 50, timeout: 10_000 },
    );
    expect(await turnIds(panel)).toHaveLength(3);
    expect(server.requests).toHaveLength(4);
    await panel.close();
  });

  it('Stop cancels its own turn by id; late output does not revive it, a late cancel reports the real state, the next turn is untouched', async () => {
    server.setScript({
      turns: [{ steps: [{ text: LONG_TEXT, delayMs: 60 }] }, { steps: [{ text: 'Next turn done.' }] }],
    });
    const panel = await session.openPanel();
    await panel.click('button::-p-text(New chat)');
    await sendMessage(panel, 'Tell me a long story.');
    await panel.waitForFunction(
      () => (document.querySelector('.assistant-message')?.textContent ?? '').includes('word5'),
      { polling: 50, timeout: 20_000 },
    );
    await panel.bringToFront();
    await panel.click('::-p-aria([name="Stop"][role="button"])');
    expect(await waitForTurnEnd(panel, 0)).toBe('aborted');
    const stoppedText = await panel.$eval('.assistant-message', (element) => element.firstChild?.textContent ?? '');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await panel.$eval('.assistant-message', (element) => element.firstChild?.textContent ?? '')).toBe(
      stoppedText,
    );
    expect(await panel.$eval('article.turn', (turn) => turn.getAttribute('data-status'))).toBe('aborted');

    const sessionId = await currentSessionId(panel);
    const [stoppedTurn] = await turnIds(panel);
    await submitComposer(panel, 'Go on.');
    const late = await runtimeRequest(panel, {
      type: 'command/submit',
      kind: 'cancel',
      sessionId,
      turnId: stoppedTurn,
      commandId: 'late-cancel',
    });
    expect(late.result).toMatchObject({ state: 'stale', turnStatus: 'aborted' });
    expect(await waitForTurnEnd(panel, 1)).toBe('completed');
    const log = await readStoredLog(panel, sessionId);
    expect(log.filter((row) => row.type === 'turn/aborted')).toHaveLength(1);
    expect(log.filter((row) => row.type === 'turn/completed')).toHaveLength(1);
    await panel.close();
  });

  it('a cancel cut off by a service-worker restart is read back by its id: applied once, never guessed', async () => {
    server.setScript({
      turns: [{ steps: [{ text: LONG_TEXT, delayMs: 60 }] }, { steps: [{ text: 'Next turn done.' }] }],
    });
    const panel = await session.openPanel();
    await panel.click('button::-p-text(New chat)');
    await sendMessage(panel, 'Tell me a long story.');
    await panel.waitForFunction(
      () => (document.querySelector('.assistant-message')?.textContent ?? '').includes('word5'),
      { polling: 50, timeout: 20_000 },
    );
    await panel.bringToFront();
    await Promise.all([panel.click('::-p-aria([name="Stop"][role="button"])'), session.stopServiceWorker()]);
    expect(await waitForTurnEnd(panel, 0)).toBe('aborted');
    const sessionId = await currentSessionId(panel);
    const [stoppedTurn] = await turnIds(panel);
    let commandId = '';
    for (let attempt = 0; attempt < 50 && !commandId; attempt++) {
      commandId = (await readStoredLog(panel, sessionId)).find((row) => row.type === 'turn/aborted')?.commandId ?? '';
      if (!commandId) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(commandId).not.toBe('');
    const status = await runtimeRequest(panel, { type: 'command/status', sessionId, commandId });
    expect(status.result).toMatchObject({ state: 'applied', turnStatus: 'aborted' });
    expect((await readStoredLog(panel, sessionId)).filter((row) => row.type === 'turn/aborted')).toHaveLength(1);
    expect(await turnIds(panel)).toEqual([stoppedTurn]);
    await panel.close();
  });
});
