import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import exifr from 'exifr';
import { zipSync } from 'fflate';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { filesIn } from '../support/model-request-images';
import { pngHeader } from '../support/png-header';
import { endpointFormats, scriptedEndpointSettings, type EndpointFormat } from '../support/scripted-endpoint-settings';
import { onePagePdf, patternPng, withGpsExif } from '../support/test-files';
import {
  configureProfile,
  currentSessionId,
  launchExtension,
  sendMessage,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/** The text files the model received inline, by name. */
function textFilesIn(body: unknown): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of JSON.stringify(body).matchAll(/<file name=\\"([^\\]+)\\" type=\\"[^\\]+\\">\\n(.*?)\\n<\/file>/g))
    found.set(match[1], JSON.parse(`"${match[2]}"`) as string);
  return found;
}

/** A hash of the decoded pixels, so an image re-encoded without loss compares equal to the original. */
async function pixelHash(panel: Page, bytes: Buffer, mime: string): Promise<string> {
  return panel.evaluate(
    async (base64, type) => {
      const data = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([data], { type }), {
        colorSpaceConversion: 'none',
        premultiplyAlpha: 'none',
      });
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const context = canvas.getContext('2d')!;
      context.drawImage(bitmap, 0, 0);
      const pixels = context.getImageData(0, 0, bitmap.width, bitmap.height).data;
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', pixels));
      return `${bitmap.width}x${bitmap.height}:${[...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
    },
    bytes.toString('base64'),
    mime,
  );
}

async function chipStates(panel: Page): Promise<string[]> {
  return panel.$$eval('.attachment-chips .attachment-chip', (chips) =>
    chips.map((chip) => `${chip.querySelector('.attachment-name')?.textContent}:${chip.getAttribute('data-state')}`),
  );
}

async function waitForChips(panel: Page, expected: string[]): Promise<void> {
  try {
    await panel.waitForFunction(
      (want) =>
        JSON.stringify(
          [...document.querySelectorAll('.attachment-chips .attachment-chip')].map(
            (chip) => `${chip.querySelector('.attachment-name')?.textContent}:${chip.getAttribute('data-state')}`,
          ),
        ) === JSON.stringify(want),
      { timeout: 15_000, polling: 20 },
      expected,
    );
  } catch (error) {
    throw new Error(`Chips are ${JSON.stringify(await chipStates(panel))}, not ${JSON.stringify(expected)}: ${error}`);
  }
}

/** Pastes a file into the message box, as the clipboard would; resolves with how long the chip took to say `state`. */
async function pasteFile(panel: Page, name: string, bytes: Buffer, type: string, state: string): Promise<number> {
  return panel.evaluate(
    async (fileName, base64, fileType, wanted) => {
      const data = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([data], fileName, { type: fileType }));
      const textarea = document.querySelector('textarea[aria-label="Message"]')!;
      const started = performance.now();
      const reached = () =>
        [...document.querySelectorAll('.attachment-chip')].some(
          (chip) =>
            chip.querySelector('.attachment-name')?.textContent === fileName &&
            chip.getAttribute('data-state') === wanted,
        );
      const done = new Promise<number>((resolve) => {
        const observer = new MutationObserver(() => {
          if (!reached()) return;
          observer.disconnect();
          resolve(performance.now() - started);
        });
        observer.observe(document.body, { subtree: true, childList: true, attributes: true });
      });
      textarea.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
      return done;
    },
    name,
    bytes.toString('base64'),
    type,
    state,
  );
}

async function uploadedStates(panel: Page, sessionId: string): Promise<Record<string, string[]>> {
  return panel.evaluate(
    (id) =>
      new Promise<Record<string, string[]>>((resolve, reject) => {
        const open = indexedDB.open('splitbrain');
        open.onerror = () => reject(new Error(String(open.error)));
        open.onsuccess = () => {
          const rows = open.result
            .transaction('events')
            .objectStore('events')
            .getAll(IDBKeyRange.bound([id, -Infinity], [id, Infinity]));
          rows.onsuccess = () => {
            open.result.close();
            const states: Record<string, string[]> = {};
            for (const row of rows.result as { event: { type: string; data: { name: string; state: string } } }[])
              if (row.event.type === 'upload/state') (states[row.event.data.name] ??= []).push(row.event.data.state);
            resolve(states);
          };
        };
      }),
    sessionId,
  );
}

/** Every row of every object store, as text; binary columns (the blob bytes) are left out. */
async function everyStoredRow(panel: Page): Promise<{ stores: Record<string, number>; text: string }> {
  return panel.evaluate(
    () =>
      new Promise<{ stores: Record<string, number>; text: string }>((resolve, reject) => {
        const open = indexedDB.open('splitbrain');
        open.onerror = () => reject(new Error(String(open.error)));
        open.onsuccess = () => {
          const database = open.result;
          const names = [...database.objectStoreNames];
          const transaction = database.transaction(names);
          const stores: Record<string, number> = {};
          const texts: string[] = [];
          for (const name of names) {
            const request = transaction.objectStore(name).getAll();
            request.onsuccess = () => {
              stores[name] = request.result.length;
              texts.push(
                JSON.stringify(request.result, (_key, value: unknown) =>
                  value instanceof Uint8Array || value instanceof ArrayBuffer ? '<binary>' : value,
                ),
              );
            };
          }
          transaction.oncomplete = () => {
            database.close();
            resolve({ stores, text: texts.join('\n') });
          };
        };
      }),
  );
}

async function deleteSession(panel: Page, sessionId: string): Promise<void> {
  await panel.evaluate(async (id) => {
    const runtime = (
      globalThis as unknown as { chrome: { runtime: { sendMessage(message: unknown): Promise<unknown> } } }
    ).chrome.runtime;
    await runtime.sendMessage({ type: 'session/delete', sessionId: id });
  }, sessionId);
}

describe('files in the conversation, through the real extension', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;
  const directory = mkdtempSync(join(tmpdir(), 'splitbrain-files-'));
  const png = patternPng(300, 200, 7);
  const pasted = patternPng(64, 48, 91);
  const pdf = onePagePdf();
  const csv = Buffer.from('name,speed\nalpha,12\nbeta,7\n');
  const paths = {
    png: join(directory, 'chart.png'),
    pdf: join(directory, 'report.pdf'),
    csv: join(directory, 'data.csv'),
  };
  const sessions: string[] = [];

  beforeAll(async () => {
    writeFileSync(paths.png, png);
    writeFileSync(paths.pdf, pdf);
    writeFileSync(paths.csv, csv);
    server = await startScriptedModelServer();
    server.setScript({ turns: [{ steps: [{ text: 'I have read the files.' }] }] });
    session = await launchExtension();
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  async function attachAll(panel: Page): Promise<void> {
    const input = await panel.$('input[type="file"]');
    await input!.uploadFile(paths.png, paths.pdf, paths.csv);
    await waitForChips(panel, ['chart.png:ready', 'report.pdf:ready', 'data.csv:ready']);
    await pasteFile(panel, 'pasted.png', pasted, 'image/png', 'ready');
    await waitForChips(panel, ['chart.png:ready', 'report.pdf:ready', 'data.csv:ready', 'pasted.png:ready']);
  }

  it.each(endpointFormats.map((format) => ({ format })))(
    '$format: a PNG, a PDF and a CSV by the file input and an image by paste reach the model byte for byte',
    async ({ format }: { format: EndpointFormat }) => {
      await configureProfile(session, scriptedEndpointSettings(format, server.origin));
      server.clearRequests();
      const panel = await session.openPanel();
      await panel.click('button::-p-text(New chat)');
      await attachAll(panel);
      if (format === 'openai-compatible') {
        const refusal = await panel.$eval('.attachment-refusal', (element) => element.textContent);
        expect(refusal).toContain('does not take PDF files');
        expect(await panel.$eval('button[type="submit"]', (button) => (button as HTMLButtonElement).disabled)).toBe(
          true,
        );
        // Removed by keyboard: the chip's remove button, focused, then Enter.
        await panel.focus('button[aria-label="Remove report.pdf"]');
        await panel.keyboard.press('Enter');
        await waitForChips(panel, ['chart.png:ready', 'data.csv:ready', 'pasted.png:ready']);
      }
      await sendMessage(panel, 'What is in these files?');
      expect(await waitForTurnEnd(panel, 0)).toBe('completed');
      const sessionId = await currentSessionId(panel);
      sessions.push(sessionId);

      expect(server.requests).toHaveLength(1);
      const body = server.requests[0].body;
      const arrived = filesIn(body);
      const images = arrived.filter((file) => file.mime.startsWith('image/'));
      expect(images.map((image) => image.mime)).toEqual(['image/png', 'image/png']);
      expect(await pixelHash(panel, images[0].bytes, images[0].mime)).toBe(await pixelHash(panel, png, 'image/png'));
      expect(await pixelHash(panel, images[1].bytes, images[1].mime)).toBe(await pixelHash(panel, pasted, 'image/png'));
      const pdfs = arrived.filter((file) => file.mime === 'application/pdf');
      if (format === 'openai-compatible') expect(pdfs).toEqual([]);
      else expect(pdfs.map((file) => sha256(file.bytes))).toEqual([sha256(pdf)]);
      const csvArrived =
        format === 'ai-sdk-chat'
          ? arrived.find((file) => file.mime === 'text/csv')?.bytes
          : Buffer.from(textFilesIn(body).get('data.csv') ?? '');
      expect(sha256(csvArrived ?? '')).toBe(sha256(csv));
      console.log(
        `[e2e] files ${format}: ${images.length} images (${images.map((image) => image.bytes.length).join(', ')} bytes after re-encode), ${pdfs.length} PDF, CSV ${csv.length} bytes arrived`,
      );

      const states = await uploadedStates(panel, sessionId);
      expect(states['chart.png']).toEqual(['selected', 'hashing', 'ready', 'attached', 'consumed']);
      expect(states['pasted.png']).toEqual(['selected', 'hashing', 'ready', 'attached', 'consumed']);
      if (format === 'openai-compatible')
        expect(states['report.pdf']).toEqual(['selected', 'hashing', 'ready', 'cancelled']);

      // After a reload the thumbnails come from IndexedDB.
      await panel.reload();
      await panel.waitForFunction(
        () =>
          [...document.querySelectorAll<HTMLImageElement>('.message-attachments img')].filter(
            (image) => image.complete && image.naturalWidth > 0,
          ).length === 2,
        { timeout: 10_000 },
      );
      expect(await chipStates(panel)).toEqual([]);
      await panel.close();
    },
  );

  it('a file pasted the moment New chat is pressed goes with the new conversation, not the one just left', async () => {
    await configureProfile(session, scriptedEndpointSettings('anthropic', server.origin));
    const panel = await session.openPanel();
    await panel.click('button::-p-text(New chat)');
    await sendMessage(panel, 'Hello');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    const left = await currentSessionId(panel);
    sessions.push(left);
    // The paste right after React rendered the click, before any task of the panel's ran: input goes ahead of
    // the panel's own work in the browser's queue, so a hand pasting while the panel is busy lands here too.
    await panel.evaluate(async (base64) => {
      const transfer = new DataTransfer();
      const data = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
      transfer.items.add(new File([data], 'quick.png', { type: 'image/png' }));
      [...document.querySelectorAll('button')].find((button) => button.textContent?.includes('New chat'))!.click();
      await new Promise<void>((resolve) => queueMicrotask(resolve));
      document
        .querySelector('textarea[aria-label="Message"]')!
        .dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
    }, pasted.toString('base64'));
    await waitForChips(panel, ['quick.png:ready']);
    const opened = await currentSessionId(panel);
    expect(opened).not.toBe(left);
    sessions.push(opened);
    expect(await uploadedStates(panel, left)).not.toHaveProperty('quick.png');
    expect((await uploadedStates(panel, opened))['quick.png']).toEqual(['selected', 'hashing', 'ready']);
    await panel.click('button[aria-label="Remove quick.png"]');
    await waitForChips(panel, []);
    await panel.close();
  });

  it('rejects a 20,000 × 20,000 PNG and a ZIP named photo.jpg at once, and strips GPS from a JPEG', async () => {
    await configureProfile(session, scriptedEndpointSettings('anthropic', server.origin));
    server.clearRequests();
    const panel = await session.openPanel();
    await panel.click('button::-p-text(New chat)');
    const huge = await pasteFile(panel, 'huge.png', Buffer.from(pngHeader(20_000, 20_000)), 'image/png', 'rejected');
    const zip = await pasteFile(
      panel,
      'photo.jpg',
      Buffer.from(zipSync({ 'a.txt': new Uint8Array([104, 105]) })),
      'image/jpeg',
      'rejected',
    );
    console.log(
      `[e2e] files: 20000×20000 PNG rejected in ${huge.toFixed(1)} ms, ZIP named photo.jpg in ${zip.toFixed(1)} ms (paste to chip)`,
    );
    const reasons = await panel.$$eval('.attachment-chip .attachment-reason', (items) =>
      items.map((item) => item.textContent),
    );
    expect(reasons.join(' ')).toContain('20000 × 20000 pixels');
    expect(reasons.join(' ')).toContain('ZIP archive');
    expect(await panel.$eval('button[type="submit"]', (button) => (button as HTMLButtonElement).disabled)).toBe(true);
    await panel.click('button[aria-label="Remove huge.png"]');
    await panel.click('button[aria-label="Remove photo.jpg"]');
    await waitForChips(panel, []);

    const plainJpeg = await panel.evaluate(async () => {
      const canvas = new OffscreenCanvas(120, 80);
      const context = canvas.getContext('2d')!;
      context.fillStyle = '#3a7';
      context.fillRect(0, 0, 120, 80);
      const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 });
      return btoa(String.fromCharCode(...new Uint8Array(await blob.arrayBuffer())));
    });
    const gpsJpeg = withGpsExif(Buffer.from(plainJpeg, 'base64'));
    expect(((await exifr.parse(gpsJpeg, { gps: true })) as { GPSLatitude?: number[] }).GPSLatitude).toEqual([
      48, 51, 0,
    ]);
    await pasteFile(panel, 'holiday.jpg', gpsJpeg, 'image/jpeg', 'ready');
    await sendMessage(panel, 'Where was this taken?');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    sessions.push(await currentSessionId(panel));
    const [image] = filesIn(server.requests[0].body);
    expect(image.mime).toBe('image/jpeg');
    const metadata = (await exifr.parse(image.bytes, { gps: true }).catch(() => undefined)) as
      { GPSLatitude?: unknown; GPSLatitudeRef?: unknown } | undefined;
    expect(metadata?.GPSLatitude).toBeUndefined();
    expect(metadata?.GPSLatitudeRef).toBeUndefined();
    await panel.close();
  });

  it('stores no base64 image, data: or blob: URL in any row, and deleting the sessions frees every blob', async () => {
    const panel = await session.openPanel();
    const before = await everyStoredRow(panel);
    expect(before.stores.blobs).toBeGreaterThan(0);
    for (const needle of ['data:', 'blob:', 'iVBORw0KGgo', '/9j/', 'JVBERi0'])
      expect(before.text).not.toContain(needle);
    for (const sessionId of sessions) await deleteSession(panel, sessionId);
    const after = await everyStoredRow(panel);
    console.log(
      `[e2e] files: blob rows ${before.stores.blobs} before deleting ${sessions.length} sessions, ${after.stores.blobs} after`,
    );
    expect(after.stores.blobs).toBe(0);
    expect(after.stores.blobReferences).toBe(0);
    await panel.close();
  });
});
