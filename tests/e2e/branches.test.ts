import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { answering } from '../support/answering';
import { conversationOf } from '../support/conversation-of';
import { currentSessionId, readStoredLog, sendMessage, waitForTurnEnd } from './extension-harness';
import { extensionSuite } from './extension-suite';

async function shownTexts(panel: Page): Promise<string[]> {
  return panel.$$eval('article.turn .user-message, article.turn .assistant-message', (nodes) =>
    nodes.map((node) => (node.textContent ?? '').trim()),
  );
}

/** Waits until the panel shows these messages and answers and is idle again (every answer can be regenerated). */
async function waitForShown(panel: Page, texts: string[]): Promise<void> {
  await panel
    .waitForFunction(
      (wanted: string[]) =>
        document.querySelectorAll('article.turn').length ===
          document.querySelectorAll('button[aria-label="Regenerate the answer"]').length &&
        JSON.stringify(
          [...document.querySelectorAll('article.turn .user-message, article.turn .assistant-message')].map((node) =>
            (node.textContent ?? '').trim(),
          ),
        ) === JSON.stringify(wanted),
      { timeout: 20_000, polling: 100 },
      texts,
    )
    .catch(async (error: unknown) => {
      throw new Error(`${String(error)}: the panel shows ${JSON.stringify(await shownTexts(panel))}`);
    });
}

async function switcher(panel: Page, place: 'Message' | 'Answer'): Promise<string[]> {
  return panel.$$eval(`nav.branch-switcher[aria-label^="${place} "]`, (navs) =>
    navs.map((nav) => nav.getAttribute('aria-label') ?? ''),
  );
}

describe('branches', () => {
  const suite = extensionSuite({
    model: () => startScriptedModelServer({ script: answering('Done: 12.', 'Done: 20.') }),
  });
  let panel: Page;

  beforeAll(async () => {
    panel = await suite.session.openPanel();
  });

  it('an edit and a regeneration make branches; the panel switches them and the model sees only the one in view', async () => {
    const { model } = suite;
    await sendMessage(panel, 'Set the speed to 12');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    await sendMessage(panel, 'Now 20');
    await waitForShown(panel, ['Set the speed to 12', 'Done: 12.', 'Now 20', 'Done: 20.']);

    // Edit the second message: a sibling branch; the model is sent the first turn and the edit, not "Now 20".
    model.setScript(answering('Done: 12.', 'Done: 25.', 'Blue.'));
    const [, second] = await panel.$$('article.turn');
    await (await second.$('button[aria-label="Edit and resend"]'))!.click();
    await panel.waitForSelector('textarea[aria-label="Edit message"]');
    await panel.$eval('textarea[aria-label="Edit message"]', (box) => (box as HTMLTextAreaElement).select());
    await panel.keyboard.type('Now 25');
    await panel.click('button::-p-text(Resend)');
    await waitForShown(panel, ['Set the speed to 12', 'Done: 12.', 'Now 25', 'Done: 25.']);
    expect(conversationOf(model.requests.at(-1)!.body)).toEqual([
      'user: Set the speed to 12',
      'assistant: Done: 12.',
      'user: Now 25',
    ]);
    expect(await switcher(panel, 'Message')).toEqual(['Message 2 of 2']);

    // Back to the first version, with the keyboard: the switcher's buttons are reachable and take Enter.
    await panel.focus('nav.branch-switcher-message button[aria-label="Previous message"]');
    await panel.keyboard.press('Enter');
    await waitForShown(panel, ['Set the speed to 12', 'Done: 12.', 'Now 20', 'Done: 20.']);
    expect(await switcher(panel, 'Message')).toEqual(['Message 1 of 2']);

    // A follow-up continues the branch in view: the request carries "Now 20" and its answer, never "Now 25".
    await sendMessage(panel, 'And make it blue');
    await waitForShown(panel, ['Set the speed to 12', 'Done: 12.', 'Now 20', 'Done: 20.', 'And make it blue', 'Blue.']);
    expect(conversationOf(model.requests.at(-1)!.body)).toEqual([
      'user: Set the speed to 12',
      'assistant: Done: 12.',
      'user: Now 20',
      'assistant: Done: 20.',
      'user: And make it blue',
    ]);

    // Regenerate the last answer: the same message answered again, the first answer left out of the request.
    model.setScript(answering('Done: 12.', 'Done: 20.', 'Blue, at 20.'));
    const turns = await panel.$$('article.turn');
    await (await turns.at(-1)!.$('button[aria-label="Regenerate the answer"]'))!.click();
    await waitForShown(panel, [
      'Set the speed to 12',
      'Done: 12.',
      'Now 20',
      'Done: 20.',
      'And make it blue',
      'Blue, at 20.',
    ]);
    expect(conversationOf(model.requests.at(-1)!.body)).toEqual([
      'user: Set the speed to 12',
      'assistant: Done: 12.',
      'user: Now 20',
      'assistant: Done: 20.',
      'user: And make it blue',
    ]);
    expect(await switcher(panel, 'Answer')).toEqual(['Answer 2 of 2']);
    expect(await switcher(panel, 'Message')).toEqual(['Message 1 of 2']);

    await panel.click('nav.branch-switcher-answer button[aria-label="Previous answer"]');
    await waitForShown(panel, ['Set the speed to 12', 'Done: 12.', 'Now 20', 'Done: 20.', 'And make it blue', 'Blue.']);
    // ArrowRight on the switcher goes to the next message.
    await panel.focus('nav.branch-switcher-message button[aria-label="Previous message"]');
    await panel.keyboard.press('ArrowRight');
    await waitForShown(panel, ['Set the speed to 12', 'Done: 12.', 'Now 25', 'Done: 25.']);
    await panel.click('nav.branch-switcher-message button[aria-label="Previous message"]');
    // The first message's branch comes back at its newest answer.
    await waitForShown(panel, [
      'Set the speed to 12',
      'Done: 12.',
      'Now 20',
      'Done: 20.',
      'And make it blue',
      'Blue, at 20.',
    ]);

    // The next request after all that switching carries only the branch in view.
    model.setScript(answering('Done: 12.', 'Done: 20.', 'Blue, at 20.', 'Saved.'));
    await sendMessage(panel, 'Save it');
    await waitForShown(panel, [
      'Set the speed to 12',
      'Done: 12.',
      'Now 20',
      'Done: 20.',
      'And make it blue',
      'Blue, at 20.',
      'Save it',
      'Saved.',
    ]);
    expect(conversationOf(model.requests.at(-1)!.body)).toEqual([
      'user: Set the speed to 12',
      'assistant: Done: 12.',
      'user: Now 20',
      'assistant: Done: 20.',
      'user: And make it blue',
      'assistant: Blue, at 20.',
      'user: Save it',
    ]);

    // Nothing was deleted: every turn is in the log, and the switches are events of it.
    const sessionId = await currentSessionId(panel);
    const rows = await readStoredLog(panel, sessionId);
    expect(rows.filter((row) => row.type === 'turn/started')).toHaveLength(6);
    expect(rows.filter((row) => row.type === 'branch/switched')).toHaveLength(4);
  }, 120_000);

  it('shows the same branch after the panel is opened again', async () => {
    const { session } = suite;
    const expected = await shownTexts(panel);
    await panel.close();
    panel = await session.openPanel();
    await panel.setViewport({ width: 400, height: 720 });
    await waitForShown(panel, expected);
    expect(await switcher(panel, 'Answer')).toEqual(['Answer 2 of 2']);
    expect(await switcher(panel, 'Message')).toEqual(['Message 1 of 2']);
    await panel.evaluate(() =>
      document.querySelector('nav.branch-switcher-message')!.closest('article')!.scrollIntoView({ block: 'start' }),
    );
    await panel.evaluate(() => document.fonts.ready);
    await panel.screenshot({ path: 'tests/screenshots/branches.png' });
  }, 60_000);

  it("forks a message into a new conversation with that history, whose file outlives the original's deletion", async () => {
    const { model } = suite;
    const csv = join(mkdtempSync(join(tmpdir(), 'splitbrain-fork-')), 'levels.csv');
    writeFileSync(csv, 'animal,level\nzebra-fork-7731,42\n');
    model.setScript(answering('Read: one row.', 'Forty-two.', 'Still 42.'));
    await panel.click('button::-p-text(New chat)');
    await (await panel.$('input[type="file"]'))!.uploadFile(csv);
    await panel.waitForSelector('.attachment-chip[data-state="ready"]', { timeout: 10_000 });
    await sendMessage(panel, 'Read the levels');
    await waitForShown(panel, ['Read the levels', 'Read: one row.']);
    await sendMessage(panel, 'What is the level?');
    await waitForShown(panel, ['Read the levels', 'Read: one row.', 'What is the level?', 'Forty-two.']);
    const original = await currentSessionId(panel);

    const [first] = await panel.$$('article.turn');
    await (await first.$('button[aria-label="Fork from here"]'))!.click();
    await panel.waitForFunction(
      async (was: string) => {
        const stored = await (
          globalThis as unknown as {
            chrome: { storage: { local: { get(key: string): Promise<Record<string, unknown>> } } };
          }
        ).chrome.storage.local.get('lastSessionId');
        return stored.lastSessionId !== was;
      },
      { timeout: 10_000, polling: 100 },
      original,
    );
    await waitForShown(panel, ['Read the levels', 'Read: one row.']);
    const fork = await currentSessionId(panel);
    expect(fork).not.toBe(original);

    // Delete the original from the drawer: the fork keeps its own reference to the file.
    await panel.click('button[aria-label="Sessions"]');
    await panel.waitForSelector('ul[aria-label="Sessions"] li.session-row:not([data-current])');
    const listed = await panel.$$eval('ul[aria-label="Sessions"] .session-title', (titles) => titles.length);
    const rows = await panel.$$('ul[aria-label="Sessions"] li.session-row:not([data-current])');
    // The newest other conversation, listed first, is the original.
    await (await rows[0].$('button[aria-label^="Delete"]'))!.click();
    await panel.click('.session-confirm button::-p-text(Delete)');
    await panel.waitForFunction(
      (count: number) => document.querySelectorAll('ul[aria-label="Sessions"] .session-title').length === count - 1,
      { timeout: 5_000 },
      listed,
    );
    expect(await readStoredLog(panel, original)).toEqual([]);
    await panel.click('button[aria-label="Close conversations"]');
    await panel.waitForFunction(() => !document.querySelector('.drawer-backdrop'), { timeout: 5_000 });

    model.setScript(answering('Read: one row.', 'It is 42.'));
    await sendMessage(panel, 'And the level?');
    await waitForShown(panel, ['Read the levels', 'Read: one row.', 'And the level?', 'It is 42.']);
    const request = model.requests.at(-1)!.body;
    expect(conversationOf(request).map((line) => line.split(':')[0])).toEqual(['user', 'assistant', 'user']);
    expect(conversationOf(request)[0]).toContain('Read the levels');
    expect(conversationOf(request)).not.toContain('user: What is the level?');
    // The file's bytes were read from the blob store after the original was deleted.
    expect(JSON.stringify(request)).toContain('zebra-fork-7731');
  }, 90_000);
});
