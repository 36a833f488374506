import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { answering } from '../support/answering';
import { currentSessionId, sendMessage, storedRowsText, waitForTurnEnd } from './extension-harness';
import { extensionSuite } from './extension-suite';
import { captureExport, exportedArchive } from './conversation-export';

const NOTES = 'Meeting notes\nThe zebra code is 4417.\nBring the blue folder.\n';
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

type StoredEvent = { sessionId: string; type: string } & Record<string, unknown>;

async function storedEvents(panel: Page, sessionId: string): Promise<StoredEvent[]> {
  return (JSON.parse(await storedRowsText(panel, sessionId)) as { event: StoredEvent }[]).map((row) => row.event);
}

const withoutSession = (events: StoredEvent[]) => events.map(({ sessionId: _sessionId, ...rest }) => rest);

/** The bytes the blob store holds for a blob, read from IndexedDB (undefined when it has none). */
async function storedBlob(panel: Page, blobId: string): Promise<string | undefined> {
  return panel.evaluate(
    (id) =>
      new Promise<string | undefined>((resolve, reject) => {
        const request = indexedDB.open('splitbrain');
        request.onerror = () => reject(new Error(String(request.error)));
        request.onsuccess = () => {
          const reading = request.result.transaction('blobs').objectStore('blobs').get(id);
          reading.onsuccess = () => {
            const row = reading.result as { bytes: Uint8Array } | undefined;
            request.result.close();
            resolve(row ? new TextDecoder().decode(row.bytes) : undefined);
          };
          reading.onerror = () => reject(new Error(String(reading.error)));
        };
      }),
    blobId,
  );
}

/** The messages a model request carried, but the system prompt (which names the time and page). */
function historyOf(body: unknown): unknown[] {
  return (body as { messages: { role: string }[] }).messages.filter((message) => message.role !== 'system');
}

async function openDrawer(panel: Page): Promise<void> {
  if (await panel.$('aside[aria-label="Conversations"]')) return;
  await panel.click('button[aria-label="Sessions"]');
  await panel.waitForSelector('aside[aria-label="Conversations"]');
}

/** Picks `path` in the drawer's Import file chooser, as the user does. */
async function importThroughPicker(panel: Page, path: string): Promise<void> {
  await openDrawer(panel);
  const [chooser] = await Promise.all([panel.waitForFileChooser(), panel.click('button::-p-text(Import)')]);
  await chooser.accept([path]);
}

async function sessionCount(panel: Page): Promise<number> {
  const reply = await panel.evaluate(() =>
    (
      globalThis as unknown as { chrome: { runtime: { sendMessage(message: unknown): Promise<unknown> } } }
    ).chrome.runtime.sendMessage({ type: 'sessions/list' }),
  );
  return (reply as { result: { sessions: unknown[] } }).result.sessions.length;
}

describe('conversation import', () => {
  const suite = extensionSuite({
    model: () => startScriptedModelServer({ script: answering('The zebra code is 4417.') }),
  });
  let panel: Page;
  const folder = mkdtempSync(join(tmpdir(), 'splitbrain-import-'));

  beforeAll(async () => {
    panel = await suite.session.openPanel();
  });

  it('imports an export as the same conversation: events, file bytes, and the history the model is sent next', async () => {
    const { model } = suite;
    const notesPath = join(folder, 'notes.txt');
    writeFileSync(notesPath, NOTES);
    const input = await panel.$('input[type="file"]');
    await input!.uploadFile(notesPath);
    await panel.waitForSelector('.attachment-chip[data-state="ready"]', { timeout: 15_000 });
    await sendMessage(panel, 'What is the zebra code?');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    const originalId = await currentSessionId(panel);
    const original = await storedEvents(panel, originalId);
    const firstRequest = historyOf(model.requests.at(-1)!.body);
    expect(JSON.stringify(firstRequest)).toContain('The zebra code is 4417.');

    // Export: the zip the button downloads holds the log and the attached file, byte for byte.
    await openDrawer(panel);
    const archive = await captureExport(panel);
    const { conversation, blobs } = exportedArchive(archive);
    expect(JSON.parse(conversation)).toMatchObject({ format: 'splitbrain-session', version: 2 });
    expect([...blobs.keys()]).toEqual([sha256(NOTES)]);
    expect(new TextDecoder().decode(blobs.get(sha256(NOTES)))).toBe(NOTES);
    const archivePath = join(folder, 'conversation.zip');
    writeFileSync(archivePath, archive);
    console.log(`[e2e] session-import: export ${archive.length} bytes, ${original.length} events, 1 file`);

    // Delete the original (its file goes with it), then import the export through the panel's file picker.
    await panel.click('ul[aria-label="Sessions"] button[aria-label^="Delete"]');
    await panel.click('.session-confirm button::-p-text(Delete)');
    await panel.waitForFunction(
      () => document.querySelectorAll('ul[aria-label="Sessions"] li.session-row').length === 0,
    );
    expect(await storedBlob(panel, sha256(NOTES))).toBeUndefined();
    await importThroughPicker(panel, archivePath);
    // The panel showed an empty new conversation after the delete: a turn appears when the import opens.
    await panel.waitForSelector('article.turn', { timeout: 15_000 });
    expect(await panel.$('.panel-error')).toBeNull();
    expect(await currentSessionId(panel)).toBe(originalId);
    expect(await panel.$('.panel-notice')).toBeNull();
    expect(await storedEvents(panel, originalId)).toEqual(original);
    expect(await storedBlob(panel, sha256(NOTES))).toBe(NOTES);

    // The next request of the imported conversation carries the same history, the file's text in it.
    model.setScript(answering('Bring the blue folder.'));
    await sendMessage(panel, 'And what should I bring?');
    expect(await waitForTurnEnd(panel, 1)).toBe('completed');
    const nextRequest = historyOf(model.requests.at(-1)!.body);
    expect(nextRequest.slice(0, firstRequest.length)).toEqual(firstRequest);
    expect(JSON.stringify(nextRequest.slice(firstRequest.length))).toContain('And what should I bring?');
  });

  it('imports the same file again as a copy with new ids, and says so', async () => {
    const archivePath = join(folder, 'conversation.zip');
    const before = await sessionCount(panel);
    const originalId = await currentSessionId(panel);
    await importThroughPicker(panel, archivePath);
    await panel.waitForSelector('.panel-notice', { timeout: 15_000 });
    expect(await panel.$eval('.panel-notice', (notice) => notice.textContent)).toContain(
      'Imported as a copy: ids remapped',
    );
    const copyId = await currentSessionId(panel);
    expect(copyId).not.toBe(originalId);
    expect(await sessionCount(panel)).toBe(before + 1);
    const copy = await storedEvents(panel, copyId);
    expect(copy.every((event) => event.sessionId === copyId)).toBe(true);
    // The copy is the exported conversation: the original's first turn, without the turn added since.
    const exported = JSON.parse(exportedArchive(new Uint8Array(readFileSync(archivePath))).conversation) as {
      events: StoredEvent[];
    };
    expect(withoutSession(copy)).toEqual(withoutSession(exported.events));
    await panel.waitForFunction(() => document.querySelectorAll('article.turn').length === 1);
  });

  it('refuses a file that is no export, plainly, and writes nothing', async () => {
    const before = await sessionCount(panel);
    const bogus = join(folder, 'holiday.json');
    writeFileSync(bogus, 'these are not the notes you are looking for');
    await importThroughPicker(panel, bogus);
    await panel.waitForSelector('.panel-error', { timeout: 15_000 });
    expect(await panel.$eval('.panel-error', (error) => error.textContent)).toContain(
      'Could not import “holiday.json”: The file is neither a zip archive nor JSON. Nothing was imported.',
    );
    expect(await sessionCount(panel)).toBe(before);
  });
});
