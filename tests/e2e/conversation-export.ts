import { strFromU8, unzipSync } from 'fflate';
import type { Page } from 'puppeteer-core';

/**
 * Clicks the Export button of the conversation titled `title` (the first listed when none is named) in the open
 * conversations drawer, and returns the bytes the panel handed the browser's download: the file the user saves.
 */
export async function captureExport(panel: Page, title?: string): Promise<Uint8Array> {
  await panel.evaluate(() => {
    const captured: string[] = [];
    (window as unknown as { __exports: string[] }).__exports = captured;
    const original = URL.createObjectURL.bind(URL);
    URL.createObjectURL = (blob: Blob) => {
      void blob.arrayBuffer().then((buffer) => {
        let binary = '';
        for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
        captured.push(btoa(binary));
      });
      return original(blob);
    };
  });
  const button = `ul[aria-label="Sessions"] button[aria-label^="Export${title ? ` “${title}”` : ''}"]`;
  await panel.waitForSelector(button);
  await panel.click(button);
  await panel.waitForFunction(() => (window as unknown as { __exports: string[] }).__exports.length > 0, {
    timeout: 10_000,
    polling: 100,
  });
  const base64 = await panel.evaluate(() => (window as unknown as { __exports: string[] }).__exports[0]!);
  return new Uint8Array(Buffer.from(base64, 'base64'));
}

/** The entries of an exported archive: `conversation.json` as text, and each `blobs/<blobId>` file. */
export function exportedArchive(bytes: Uint8Array): { conversation: string; blobs: Map<string, Uint8Array> } {
  const entries = unzipSync(bytes);
  const blobs = new Map<string, Uint8Array>();
  for (const [name, content] of Object.entries(entries))
    if (name.startsWith('blobs/')) blobs.set(name.slice('blobs/'.length), content);
  return { conversation: strFromU8(entries['conversation.json']!), blobs };
}
