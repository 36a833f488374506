import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import type { StreamableStep } from '../../scripts/scripted-model-server/script';
import { RESUME_NOTE } from '../../lib/runtime/turn-commands';
import { startPageServers, type PageServers } from '../support/static-page-server';
import { observationIn, refIn, type ToolResult } from '../support/page-task-model';
import { configureEndpoint, launchExtension, sendMessage, type ExtensionSession } from './extension-harness';

interface ChatMessage {
  role: string;
  content?: unknown;
}

function messagesOf(body: unknown): ChatMessage[] {
  const messages = (body as { messages?: unknown } | undefined)?.messages;
  return Array.isArray(messages) ? (messages as ChatMessage[]) : [];
}

function toolResults(messages: ChatMessage[]): ToolResult[] {
  return messages
    .filter((message) => message.role === 'tool')
    .map((message) => JSON.parse(String(message.content)) as ToolResult);
}

const RESUMED = 'The person paused you';

/**
 * The model of these tasks: it observes, then types into the field `field`; once resumed, it first tries its
 * pre-pause observation again (a stale action, refused), then answers.
 */
interface TypedField {
  name: string;
  text: string;
  /** A second field the model types into next (its approval keeps the turn running). */
  then?: string;
}

function pausingModel(field: () => TypedField, before: { observationId?: string }) {
  return (body: unknown): StreamableStep => {
    const messages = messagesOf(body);
    const lastUser = messages.findLastIndex((message) => message.role === 'user');
    const since = messages.slice(lastUser + 1);
    const resumed = String(messages[lastUser]?.content ?? '').startsWith(RESUMED);
    const results = toolResults(since);
    const id = `call_${Math.random().toString(36).slice(2)}`;
    if (resumed) {
      if (results.length > 0) return { text: 'Done.' };
      return {
        toolCalls: [
          {
            id,
            name: 'actOnPage',
            arguments: { observationId: before.observationId, action: 'type', ref: 'e1', text: 'Replayed' },
          },
        ],
      };
    }
    if (results.length === 0) return { toolCalls: [{ id, name: 'observePage', arguments: {} }] };
    if (results.length === 1) {
      const last = results[0];
      before.observationId = String(observationIn(last).observationId);
      const { name, text } = field();
      return {
        toolCalls: [
          {
            id,
            name: 'actOnPage',
            arguments: { observationId: before.observationId, action: 'type', ref: refIn(last, 'textbox', name), text },
          },
        ],
      };
    }
    const next = field().then;
    if (results.length === 2 && next) {
      const last = results[1];
      return {
        toolCalls: [
          {
            id,
            name: 'actOnPage',
            arguments: {
              observationId: String(observationIn(last).observationId),
              action: 'type',
              ref: refIn(last, 'textbox', next),
              text: 'Never typed',
            },
          },
        ],
      };
    }
    return { text: 'Done.' };
  };
}

/** Waits for the newest turn to show a pending approval card or reach `status`; returns which. */
async function nextCardOr(panel: Page, status: string): Promise<{ card?: string; status?: string }> {
  const handle = await panel.waitForFunction(
    (wanted) => {
      const turn = [...document.querySelectorAll('article.turn')].at(-1);
      const card = turn?.querySelector('section.approval-card[data-status="pending"]');
      if (card) return { card: card.getAttribute('data-request-id') ?? '' };
      return turn?.getAttribute('data-status') === wanted ? { status: wanted } : false;
    },
    { timeout: 30_000, polling: 50 },
    status,
  );
  return (await handle.jsonValue()) as { card?: string; status?: string };
}

async function allow(panel: Page, requestId: string): Promise<void> {
  await panel.evaluate((id) => {
    const card = document.querySelector(`section.approval-card[data-request-id="${id}"]`);
    const button = [...(card?.querySelectorAll('button') ?? [])].find((candidate) => candidate.textContent === 'Allow');
    (button as HTMLButtonElement | undefined)?.click();
  }, requestId);
  await panel.waitForFunction(
    (id) =>
      document.querySelector(`section.approval-card[data-request-id="${id}"]`)?.getAttribute('data-status') !==
      'pending',
    { timeout: 10_000 },
    requestId,
  );
}

/** Allows every card until the newest turn reaches `status`. */
async function allowUntil(panel: Page, status: string): Promise<void> {
  for (;;) {
    const next = await nextCardOr(panel, status);
    if (next.status) return;
    await allow(panel, next.card!);
  }
}

async function clickButton(panel: Page, selector: string, label: string): Promise<void> {
  await panel.waitForFunction(
    (where, text) => [...document.querySelectorAll(`${where} button`)].some((button) => button.textContent === text),
    { timeout: 10_000 },
    selector,
    label,
  );
  await panel.evaluate(
    (where, text) => {
      const button = [...document.querySelectorAll(`${where} button`)].find(
        (candidate) => candidate.textContent === text,
      );
      (button as HTMLButtonElement).click();
    },
    selector,
    label,
  );
}

/** Sends `text`, allows the cards up to the typing action's, presses Pause before allowing that one: the turn pauses after it. */
async function runUntilPaused(panel: Page, text: string): Promise<void> {
  await panel.bringToFront();
  await sendMessage(panel, text);
  for (;;) {
    const next = await nextCardOr(panel, 'paused');
    if (next.status) throw new Error('The turn paused before its typing action was asked for.');
    const summary = await panel.$eval(
      `section.approval-card[data-request-id="${next.card}"] .request-summary`,
      (element) => element.textContent ?? '',
    );
    if (summary.startsWith('Let Splitbrain read')) {
      await allow(panel, next.card!);
      continue;
    }
    // The action waits for its approval: the pause is queued now and applied once the action has run.
    await clickButton(panel, '.pause-bar', 'Pause');
    await panel.waitForFunction(() => document.querySelector('.pause-bar')?.getAttribute('data-state') === 'pausing', {
      timeout: 10_000,
    });
    await allow(panel, next.card!);
    break;
  }
  await panel.waitForFunction(
    () =>
      [...document.querySelectorAll('article.turn')].at(-1)?.getAttribute('data-status') === 'paused' &&
      document.querySelector('.pause-bar')?.getAttribute('data-state') === 'paused',
    { timeout: 30_000 },
  );
}

describe('pause, take over, resume: the person acts on the page while the turn waits, in Chromium', () => {
  let pages: PageServers;
  let server: ScriptedModelServer;
  let session: ExtensionSession;
  let panel: Page;
  let web: Page;
  let field: TypedField = { name: 'Full name', text: 'Ada' };
  const before: { observationId?: string } = {};

  beforeAll(async () => {
    pages = await startPageServers();
    server = await startScriptedModelServer({ respond: pausingModel(() => field, before) });
    session = await launchExtension();
    await configureEndpoint(session, server.url);
    web = await session.browser.newPage();
    await web.goto(`${pages.origin}/form.html`);
    panel = await session.openPanel();
    await panel.waitForFunction(() => document.querySelector('.page-line-title')?.textContent === 'Sign up', {
      timeout: 10_000,
    });
  }, 60_000);

  afterAll(async () => {
    await session?.close();
    await server?.close();
    await pages?.close();
  });

  it('pause → the person types → resume: the next request carries the fresh observation and the note, and the stale action is refused', async () => {
    await runUntilPaused(panel, 'Sign me up');
    // Paused after the typing action and before the next model request.
    expect(server.requests).toHaveLength(2);
    expect(await web.$eval('#name', (input) => (input as HTMLInputElement).value)).toBe('Ada');

    await web.bringToFront();
    await web.click('#email');
    await web.type('#email', 'person@example.com');
    expect(server.requests).toHaveLength(2);

    await panel.bringToFront();
    await clickButton(panel, '.pause-bar', 'Resume');
    await allowUntil(panel, 'completed');

    const resumedRequest = messagesOf(server.requests[2].body);
    const note = String(resumedRequest.at(-1)?.content ?? '');
    expect(resumedRequest.at(-1)?.role).toBe('user');
    expect(note.startsWith(RESUME_NOTE)).toBe(true);
    expect(note).toContain('person@example.com');
    const fresh = /"observationId":"([^"]+)"/.exec(note)?.[1];
    expect(fresh).toBeTruthy();
    expect(fresh).not.toBe(before.observationId);
    // Nothing from before the pause was sent again as if new: the turn's tool calls are the two the model made.
    expect(resumedRequest.filter((message) => message.role === 'tool')).toHaveLength(2);

    const refused = toolResults(messagesOf(server.requests[3].body)).at(-1);
    expect(refused).toMatchObject({ ok: false, code: 'STALE_OBSERVATION' });
    expect(String(refused?.error)).toContain('from before the pause');
    expect(await web.$eval('#name', (input) => (input as HTMLInputElement).value)).toBe('Ada');
    expect(await web.$eval('#email', (input) => (input as HTMLInputElement).value)).toBe('person@example.com');
    expect(await panel.$$eval('.resume-line', (lines) => lines.length)).toBe(1);
  }, 120_000);

  it('the paused state comes from the log: it survives a panel reload and a service-worker restart, and Stop ends it', async () => {
    field = { name: 'About you', text: 'Likes pausing' };
    server.clearRequests();
    await runUntilPaused(panel, 'Tell them about me');
    const requests = server.requests.length;

    await panel.reload();
    await panel.waitForFunction(() => document.querySelector('.pause-bar')?.getAttribute('data-state') === 'paused', {
      timeout: 30_000,
    });
    await session.stopServiceWorker();
    await panel.reload();
    await panel.waitForFunction(
      () =>
        document.querySelector('.pause-bar')?.getAttribute('data-state') === 'paused' &&
        [...document.querySelectorAll('article.turn')].at(-1)?.getAttribute('data-status') === 'paused',
      { timeout: 30_000 },
    );
    expect(server.requests).toHaveLength(requests);

    await clickButton(panel, '.pause-bar', 'Stop');
    await panel.waitForFunction(
      () => [...document.querySelectorAll('article.turn')].at(-1)?.getAttribute('data-status') === 'aborted',
      { timeout: 30_000 },
    );
    expect(await panel.$('.pause-bar')).toBeNull();
    expect(server.requests).toHaveLength(requests);
    expect(await web.$eval('#about', (input) => (input as HTMLTextAreaElement).value)).toBe('Likes pausing');
  }, 120_000);

  it('Stop on the badge in the page cancels the turn as the panel Stop does, and the badge goes', async () => {
    field = { name: 'Email', text: 'ada@example.com', then: 'Full name' };
    await panel.reload();
    await panel.waitForSelector('textarea[aria-label="Message"]');
    await panel.waitForFunction(() => document.querySelector('.page-line-title')?.textContent === 'Sign up', {
      timeout: 10_000,
    });
    server.clearRequests();
    await sendMessage(panel, 'Fill in my email');
    const first = await nextCardOr(panel, 'completed');
    await allow(panel, first.card!);
    // The second action waits for its approval: the turn runs, and the agent has acted in the page.
    const second = await nextCardOr(panel, 'completed');
    expect(second.card).toBeTruthy();
    expect(await web.$eval('#email', (input) => (input as HTMLInputElement).value)).toBe('ada@example.com');
    await web.bringToFront();
    const stopAt = await web.waitForFunction(
      () => {
        const button = document.querySelector('splitbrain-acting-badge')?.shadowRoot?.querySelector('button');
        const box = button?.getBoundingClientRect();
        return box && box.width > 0 ? { x: box.x + box.width / 2, y: box.y + box.height / 2 } : false;
      },
      { timeout: 10_000 },
    );
    const { x, y } = (await stopAt.jsonValue()) as { x: number; y: number };
    const requests = server.requests.length;
    await web.mouse.click(x, y);
    await web.waitForFunction(() => document.querySelector('splitbrain-acting-badge') === null, { timeout: 10_000 });

    // The panel is behind the page now: polled by interval, as animation frames do not run in a hidden tab.

    await panel.waitForFunction(
      () => [...document.querySelectorAll('article.turn')].at(-1)?.getAttribute('data-status') === 'aborted',
      { timeout: 30_000, polling: 100 },
    );
    expect(server.requests).toHaveLength(requests);
    expect(await web.$eval('#name', (input) => (input as HTMLInputElement).value)).toBe('Ada');
  }, 120_000);
});
