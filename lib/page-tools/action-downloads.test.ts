import { describe, expect, it } from 'vitest';
import { ActionDownloads, sniffedType } from './action-downloads';
import type { PageDownload } from './page-download';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52];

function download(overrides: Partial<PageDownload> = {}): PageDownload {
  return {
    downloadId: 1,
    url: 'http://127.0.0.1:4000/files/report',
    filename: '/tmp/report',
    mime: 'application/octet-stream',
    bytes: 10,
    state: 'complete',
    exists: true,
    ...overrides,
  };
}

describe('sniffedType', () => {
  it('reads the bytes a data: address carries, and only then', async () => {
    const url = `data:application/octet-stream;base64,${btoa(String.fromCharCode(...PNG))}`;
    expect(await sniffedType(download({ url }))).toEqual({ mime: 'image/png', from: 'bytes' });
    expect(await sniffedType(download({ mime: 'text/csv' }))).toEqual({ mime: 'text/csv', from: 'mime' });
    expect(await sniffedType(download())).toEqual({ mime: 'application/octet-stream', from: 'unknown' });
  });
});

describe('ActionDownloads', () => {
  it("keeps only the downloads created from the tab's site, and follows their changes", async () => {
    const seen = new ActionDownloads('http://127.0.0.1:4000');
    seen.note(download({ downloadId: 2, url: 'https://other.example/a.zip' }), true);
    seen.note(download({ downloadId: 2, state: 'complete' }), false);
    expect(seen.complete()).toBe(false);
    seen.note(download({ state: 'in_progress' }), true);
    expect(seen.complete()).toBe(false);
    const waiting = seen.waitComplete(10_000, () => new Promise(() => undefined));
    seen.note(download({ state: 'complete' }), false);
    expect(await waiting).toBe(true);
    expect(await seen.waitComplete(0, async () => undefined)).toBe(true);
  });

  it('gives up waiting after the timeout when nothing was downloaded', async () => {
    expect(await new ActionDownloads('http://127.0.0.1:4000').waitComplete(5, async () => undefined)).toBe(false);
  });
});
