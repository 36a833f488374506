import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import {
  configureEndpoint,
  currentSessionId,
  launchExtension,
  readStoredLog,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';
import { captureExport, exportedArchive } from './conversation-export';

const API_KEY = 'sk-test-do-not-export-0123456789';
const LONG_ANSWER = Array.from(
  { length: 60 },
  (_, index) => `Paragraph ${index}: the particles keep moving while this answer streams.\n\n`,
).join('');

interface UserMessageBody {
  messages: { role: string; content?: unknown }[];
}

function lastUserText(body: unknown): string {
  const users = (body as UserMessageBody).messages.filter((message) => message.role === 'user');
  const content = users.at(-1)?.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
}

/** True when the accessibility tree holds an element of this role with exactly this accessible name. */
async function hasNamed(panel: Page, role: string, name: string): Promise<boolean> {
  return (await panel.$(`::-p-aria([name="${name}"][role="${role}"])`)) !== null;
}

async function liveRegionText(panel: Page): Promise<string> {
  return panel.$eval('[role="status"][aria-live="polite"]', (region) => region.textContent ?? '');
}

interface WorkerChrome {
  commands: {
    getAll(): Promise<{ name?: string; shortcut?: string; description?: string }[]>;
    onCommand: { dispatch(command: string, tab: { windowId: number }): void };
  };
  sidePanel: { open(options: { windowId: number }): Promise<void> };
  windows: { getLastFocused(): Promise<{ id?: number }> };
}

async function typeAndPressEnter(panel: Page, text: string): Promise<void> {
  await panel.focus('textarea[aria-label="Message"]');
  await panel.keyboard.type(text);
  await panel.keyboard.press('Enter');
}

/** Appends a whole finished conversation straight to the runtime, as the panel would have written it. */
async function seedLongConversation(panel: Page, sessionId: string, turns: number): Promise<void> {
  await panel.evaluate(
    async (id, count) => {
      const send = (message: unknown) =>
        (
          globalThis as unknown as {
            chrome: { runtime: { sendMessage(message: unknown): Promise<{ ok: boolean; error?: string }> } };
          }
        ).chrome.runtime.sendMessage(message);
      const drafts: unknown[] = [
        { type: 'session/created', sessionId: id, time: 1, data: { title: 'A very long conversation' } },
      ];
      for (let turn = 0; turn < count; turn++) {
        const ids = { sessionId: id, turnId: `t${turn}`, stepId: `s${turn}`, attemptId: `a${turn}` };
        drafts.push(
          {
            type: 'turn/started',
            sessionId: id,
            turnId: ids.turnId,
            time: turn,
            data: { userItemId: `u${turn}`, text: `Question number ${turn}` },
          },
          { type: 'step/started', ...ids, time: turn, data: { index: 0 } },
          {
            type: 'assistant/completed',
            ...ids,
            itemId: `i${turn}`,
            time: turn,
            data: { text: `Answer number **${turn}**.` },
          },
          { type: 'step/completed', ...ids, time: turn, data: { finishReason: 'stop' } },
          { type: 'turn/completed', sessionId: id, turnId: ids.turnId, time: turn, data: { reason: 'stop' } },
        );
      }
      for (let start = 0; start < drafts.length; start += 5000) {
        const reply = await send({
          type: 'events/append',
          sessionId: id,
          batchId: `seed-${start}`,
          events: drafts.slice(start, start + 5000),
        });
        if (!reply.ok) throw new Error(reply.error);
      }
    },
    sessionId,
    turns,
  );
}

/**
 * Waits until a question of the 1200s is rendered (the middle of the long conversation, loaded as the reader gets
 * there); if none is, the error says where the list is and which rows it renders (`u`: not loaded, `p`: placeholder).
 */
async function waitForMiddleQuestions(panel: Page): Promise<void> {
  try {
    await panel.waitForFunction(
      () =>
        [...document.querySelectorAll('.user-message')].some((message) =>
          /Question number 12\d\d/.test(message.textContent ?? ''),
        ),
      { timeout: 15_000 },
    );
  } catch (error) {
    const list = await panel.evaluate(() => {
      const element = document.querySelector('.message-list')!;
      const rows = [...document.querySelectorAll('.virtual-row')].map(
        (row) =>
          `${row.getAttribute('data-index')}${row.querySelector('.unloaded-turn') ? 'u' : ''}${row.querySelector('.pending-turn') ? 'p' : ''}`,
      );
      const offered = document.querySelector('.new-messages') !== null;
      return `scrollTop ${element.scrollTop} of ${element.scrollHeight} (${element.clientHeight} shown), "New messages" offered: ${offered}, rows ${rows.join(' ')}`;
    });
    throw new Error(`No question of the 1200s was rendered after the wheel: ${list}`, { cause: error });
  }
}

describe('side panel features', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;

  beforeAll(async () => {
    server = await startScriptedModelServer();
    session = await launchExtension(process.env.SPLITBRAIN_TEST_BUILD);
    await configureEndpoint(session, server.url, { apiKey: API_KEY });
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it('sends on Enter, adds a line on Shift+Enter, stops on Escape, and retries', async () => {
    server.setScript({ turns: [{ steps: [{ text: LONG_ANSWER, delayMs: 30 }] }] });
    const panel = await session.openPanel();
    await panel.focus('textarea[aria-label="Message"]');
    await panel.keyboard.type('first line');
    await panel.keyboard.down('Shift');
    await panel.keyboard.press('Enter');
    await panel.keyboard.up('Shift');
    await panel.keyboard.type('second line');
    await panel.keyboard.press('Enter');
    await panel.waitForSelector('.user-message');
    expect(await panel.$eval('.user-message', (message) => message.textContent)).toBe('first line\nsecond line');
    expect(
      await panel.$eval('textarea[aria-label="Message"]', (textarea) => (textarea as HTMLTextAreaElement).value),
    ).toBe('');
    await panel.waitForFunction(
      () => (document.querySelector('.assistant-message')?.textContent ?? '').includes('Paragraph 2'),
      { polling: 20, timeout: 20_000 },
    );
    await panel.keyboard.press('Escape');
    expect(await waitForTurnEnd(panel, 0)).toBe('aborted');
    await panel.waitForSelector('button::-p-text(Retry message)');
    expect(lastUserText(server.requests.at(-1)!.body)).toBe('first line\nsecond line');
    await panel.close();
  });

  it('follows the stream only while at the bottom, else offers "New messages"', async () => {
    server.setScript({ turns: [{ steps: [{ text: LONG_ANSWER, delayMs: 12 }] }] });
    const panel = await session.openPanel();
    await panel.setViewport({ width: 400, height: 600 });
    await panel.click('button::-p-text(New chat)');
    await typeAndPressEnter(panel, 'Tell me a long story.');
    const distanceFromBottom = () =>
      panel.$eval('.message-list', (list) => list.scrollHeight - list.scrollTop - list.clientHeight);
    await panel.waitForFunction(
      () => (document.querySelector('.assistant-message')?.textContent ?? '').includes('Paragraph 12'),
      { polling: 20, timeout: 20_000 },
    );
    expect(await distanceFromBottom()).toBeLessThan(60);
    // The reader scrolls up by hand: only the reader's own scrolling stops the list from following.
    const list = (await panel.$eval('.message-list', (element) => {
      const box = element.getBoundingClientRect();
      return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
    }))!;
    await panel.mouse.move(list.x, list.y);
    await panel.mouse.wheel({ deltaY: -100_000 });
    await panel.waitForSelector('button::-p-text(New messages)', { timeout: 5_000 });
    // The browser animates a wheel scroll: wait until the list stops moving, then let more of the answer stream in.
    await panel.waitForFunction(
      () => {
        const list = document.querySelector('.message-list') as HTMLElement & { lastTop?: number };
        const still = list.lastTop === list.scrollTop;
        list.lastTop = list.scrollTop;
        return still;
      },
      { polling: 100, timeout: 5_000 },
    );
    const readerTop = await panel.$eval('.message-list', (list) => list.scrollTop);
    const lengthAtTop = await panel.evaluate(
      () => (document.querySelector('.assistant-message')?.textContent ?? '').length,
    );
    await panel.waitForFunction(
      (length: number) =>
        (document.querySelector('.assistant-message')?.textContent ?? '').length > length + 200 ||
        document.querySelector('[data-turn-status="completed"]') !== null,
      { polling: 20, timeout: 20_000 },
      lengthAtTop,
    );
    // The list stayed where the reader left it, far from the end, while the answer grew.
    expect(await panel.$eval('.message-list', (list) => list.scrollTop)).toBe(readerTop);
    expect(await distanceFromBottom()).toBeGreaterThan(200);
    await panel.click('button::-p-text(New messages)');
    await panel.waitForFunction(() => !document.querySelector('.new-messages'), { timeout: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await distanceFromBottom()).toBeLessThan(60);
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    await panel.close();
  });

  it('edits a sent message and resends it as a new branch in its place', async () => {
    server.setScript({ turns: [{ steps: [{ text: 'First answer.' }] }, { steps: [{ text: 'Second answer.' }] }] });
    const panel = await session.openPanel();
    await panel.click('button::-p-text(New chat)');
    await typeAndPressEnter(panel, 'Make it fast');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    await panel.click('button[aria-label="Edit and resend"]');
    await panel.waitForSelector('textarea[aria-label="Edit message"]');
    await panel.$eval('textarea[aria-label="Edit message"]', (textarea) => (textarea as HTMLTextAreaElement).select());
    await panel.keyboard.type('Make it slow');
    await panel.click('button::-p-text(Resend)');
    // The edit replaces the message in view; the first version stays, one click of the switcher away.
    await panel.waitForSelector('nav[aria-label="Message 2 of 2"]');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    const users = await panel.$$eval('.user-message', (messages) => messages.map((message) => message.textContent));
    expect(users).toEqual(['Make it slow']);
    expect(lastUserText(server.requests.at(-1)!.body)).toBe('Make it slow');
    await panel.close();
  });

  it('searches, exports without the API key, and deletes conversations', async () => {
    server.setScript({ turns: [{ steps: [{ text: 'Noted.' }] }] });
    const panel = await session.openPanel();
    await panel.click('button::-p-text(New chat)');
    await typeAndPressEnter(panel, `Remember the zebra code ${API_KEY}`);
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    const sessionId = await currentSessionId(panel);

    await panel.click('button[aria-label="Sessions"]');
    await panel.waitForSelector('ul[aria-label="Sessions"] li');
    await panel.type('input[aria-label="Search conversations"]', 'ZEBRA');
    const titles = await panel.$$eval('ul[aria-label="Sessions"] .session-title', (items) =>
      items.map((item) => item.textContent),
    );
    expect(titles).toHaveLength(1);
    expect(titles[0]).toContain('Remember the zebra code');

    const exported = exportedArchive(await captureExport(panel)).conversation;
    const exportedSession = JSON.parse(exported) as {
      format: string;
      session: { sessionId: string };
      events: { type: string }[];
    };
    expect(exportedSession.format).toBe('splitbrain-session');
    expect(exportedSession.session.sessionId).toBe(sessionId);
    expect(exportedSession.events.map((event) => event.type)).toContain('assistant/completed');
    expect(exported).not.toContain(API_KEY);
    expect(exported).toContain('[redacted]');

    await panel.click('ul[aria-label="Sessions"] button[aria-label^="Delete"]');
    await panel.click('.session-confirm button::-p-text(Delete)');
    await panel.waitForFunction(
      () => document.querySelectorAll('ul[aria-label="Sessions"] .session-title').length === 0,
      { timeout: 5_000 },
    );
    expect(await readStoredLog(panel, sessionId)).toEqual([]);
    expect(await currentSessionId(panel)).not.toBe(sessionId);
    await panel.close();
  });

  it('names every control, shows keyboard focus, and announces status changes', async () => {
    server.setScript({ turns: [{ steps: [{ text: LONG_ANSWER, delayMs: 30 }] }] });
    const panel = await session.openPanel();
    await panel.click('button::-p-text(New chat)');
    expect(await hasNamed(panel, 'button', 'New chat')).toBe(true);
    expect(await hasNamed(panel, 'button', 'Sessions')).toBe(true);
    expect(await hasNamed(panel, 'textbox', 'Message')).toBe(true);
    expect(await hasNamed(panel, 'button', 'Send')).toBe(true);
    expect(
      await panel.$eval(
        '[role="status"][aria-live="polite"]',
        (region) => region.closest('[aria-hidden="true"]') === null,
      ),
    ).toBe(true);

    await panel.focus('textarea[aria-label="Message"]');
    const composerRing = await panel.$eval('.composer-box', (box) => getComputedStyle(box).boxShadow);
    expect(composerRing).not.toBe('none');
    await panel.keyboard.type('Tell me a long story.');
    await panel.keyboard.press('Tab');
    const focused = await panel.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      const style = getComputedStyle(element);
      return {
        text: element.textContent,
        focusVisible: element.matches(':focus-visible'),
        outline: style.outlineStyle,
        width: parseFloat(style.outlineWidth),
      };
    });
    expect(focused).toMatchObject({ text: 'Send', focusVisible: true, outline: 'solid' });
    expect(focused.width).toBeGreaterThanOrEqual(2);

    await panel.focus('textarea[aria-label="Message"]');
    await panel.keyboard.press('Enter');
    await panel.waitForSelector('::-p-aria([name="Stop"][role="button"])', { timeout: 10_000 });
    await panel.waitForFunction(
      () =>
        document.querySelector('[role="status"][aria-live="polite"]')?.textContent === 'The assistant is responding.',
      { polling: 100, timeout: 10_000 },
    );
    await panel.waitForFunction(
      () => (document.querySelector('.assistant-message')?.textContent ?? '').includes('Paragraph 2'),
      { polling: 20, timeout: 20_000 },
    );
    await panel.keyboard.press('Escape');
    expect(await waitForTurnEnd(panel, 0)).toBe('aborted');
    await panel.waitForFunction(
      () => document.querySelector('[role="status"][aria-live="polite"]')?.textContent === 'Stopped.',
      { polling: 100, timeout: 5_000 },
    );
    expect(await liveRegionText(panel)).toBe('Stopped.');
    expect(await hasNamed(panel, 'button', 'Retry message')).toBe(true);

    await panel.click('::-p-aria([name="Sessions"][role="button"])');
    await panel.waitForSelector('::-p-aria([name="Sessions"][role="list"])', { timeout: 5_000 });
    await panel.close();
  });

  it('shows the shortcut that opens the panel, and where to change it', async () => {
    const panel = await session.openPanel();
    await panel.click('button::-p-text(New chat)');
    await panel.waitForSelector('.empty-conversation .shortcut-hint kbd', { timeout: 5_000 });
    expect(await panel.$eval('.empty-conversation .shortcut-hint kbd', (key) => key.textContent)).toBe('Alt+Shift+Y');
    await panel.click('.shortcut-hint button::-p-text(Change shortcut)');
    const shortcutsPage = await session.browser.waitForTarget(
      (target) => target.url() === 'chrome://extensions/shortcuts',
      { timeout: 10_000 },
    );
    expect(shortcutsPage.type()).toBe('page');
    await (await shortcutsPage.page())?.close();
    await panel.close();
  });

  it('declares the panel command with its shortcut; the command opens the side panel of its window at once', async () => {
    const worker = await session.worker();
    const commands = await worker.evaluate(() =>
      (globalThis as unknown as { chrome: WorkerChrome }).chrome.commands.getAll(),
    );
    expect(commands).toContainEqual({
      name: 'open-chat-panel',
      shortcut: 'Alt+Shift+Y',
      description: 'Open the Splitbrain chat panel',
    });
    // Headless Chromium passes no key press to browser shortcuts, so the command event is dispatched to the worker's
    // listeners. sidePanel.open must be called within the listener itself (the user gesture ends when it returns).
    const calls = await worker.evaluate(async () => {
      const api = (globalThis as unknown as { chrome: WorkerChrome }).chrome;
      const windowId = (await api.windows.getLastFocused()).id!;
      const original = api.sidePanel.open;
      const seen: { windowId: number; withinListener: boolean }[] = [];
      let withinListener = false;
      api.sidePanel.open = (options) => {
        seen.push({ windowId: options.windowId, withinListener });
        return Promise.resolve();
      };
      try {
        withinListener = true;
        api.commands.onCommand.dispatch('open-chat-panel', { windowId });
        withinListener = false;
        api.commands.onCommand.dispatch('some-other-command', { windowId });
      } finally {
        api.sidePanel.open = original;
      }
      return { windowId, seen };
    });
    expect(calls.seen).toEqual([{ windowId: calls.windowId, withinListener: true }]);

    // The real API, reached the same way, accepts the window and refuses only for want of a real key press.
    const warning = new Promise<string>((resolve) =>
      worker.on('console', (message) => message.text().includes('side panel') && resolve(message.text())),
    );
    await worker.evaluate(async () => {
      const api = (globalThis as unknown as { chrome: WorkerChrome }).chrome;
      api.commands.onCommand.dispatch('open-chat-panel', { windowId: (await api.windows.getLastFocused()).id! });
    });
    expect(await warning).toContain('may only be called in response to a user gesture');
  });

  it('keeps a 5,000-message conversation fast: only the turns in view are in the DOM', async () => {
    const panel = await session.openPanel();
    const sessionId = 'long-conversation';
    await seedLongConversation(panel, sessionId, 2_500);
    await panel.evaluate(
      (id) =>
        (
          globalThis as unknown as { chrome: { storage: { local: { set(value: unknown): Promise<void> } } } }
        ).chrome.storage.local.set({ lastSessionId: id }),
      sessionId,
    );
    await panel.close();
    const started = Date.now();
    const reopened = await session.openPanel();
    await reopened.setViewport({ width: 400, height: 720 });
    await reopened.waitForFunction(
      () =>
        [...document.querySelectorAll('.user-message')].some(
          (message) => message.textContent === 'Question number 2499',
        ),
      { timeout: 30_000 },
    );
    const openedMs = Date.now() - started;
    const rendered = await reopened.$$eval('article.turn', (turns) => turns.length);
    console.log(
      `[panel-features] 5,000 messages: opened and scrolled to the end in ${openedMs} ms with ${rendered} turns in the DOM`,
    );
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(40);
    // Scrolled by the reader (a wheel), not by script: a scroll nobody made does not stop the list following the end.
    const middle = (await reopened.$eval('.message-list', (list) => {
      const box = list.getBoundingClientRect();
      return { x: box.left + box.width / 2, y: box.top + box.height / 2, half: list.scrollHeight / 2 };
    }))!;
    await reopened.mouse.move(middle.x, middle.y);
    await reopened.mouse.wheel({ deltaY: -middle.half });
    await waitForMiddleQuestions(reopened);
    expect(await reopened.$$eval('article.turn', (turns) => turns.length)).toBeLessThan(40);
    await reopened.close();
  });
});
