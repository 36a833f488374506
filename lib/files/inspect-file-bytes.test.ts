import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { pngHeader } from '../../tests/support/png-header';
import { inspectFileBytes, pdfPageCount } from './inspect-file-bytes';

const text = (value: string) => new TextEncoder().encode(value);

describe('inspectFileBytes', () => {
  it('reads an image size from its header and accepts a small image', async () => {
    expect(await inspectFileBytes(pngHeader(640, 480), 'photo.png')).toEqual({
      ok: true,
      mime: 'image/png',
      width: 640,
      height: 480,
    });
  });

  it('rejects a 20,000 × 20,000 PNG from its header, without decoding it', async () => {
    const started = performance.now();
    const inspection = await inspectFileBytes(pngHeader(20_000, 20_000), 'huge.png');
    console.log(`[files] 20000×20000 PNG header rejected in ${(performance.now() - started).toFixed(1)} ms`);
    expect(inspection).toMatchObject({ ok: false, rejection: 'too-many-pixels' });
  });

  it('rejects a ZIP named photo.jpg: the bytes decide, not the name', async () => {
    const zip = zipSync({ 'a.txt': text('hello') });
    expect(await inspectFileBytes(zip, 'photo.jpg')).toMatchObject({
      ok: false,
      rejection: 'unsupported-type',
      mime: 'application/zip',
    });
  });

  it('takes UTF-8 text by its bytes and names its kind from the extension', async () => {
    expect(await inspectFileBytes(text('a,b\n1,2\n'), 'data.csv')).toEqual({ ok: true, mime: 'text/csv' });
    expect(await inspectFileBytes(text('# Title'), 'notes.md')).toEqual({ ok: true, mime: 'text/markdown' });
    expect(await inspectFileBytes(text('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'x.svg')).toMatchObject({
      ok: true,
    });
  });

  it('refuses bytes that are neither a known type nor text', async () => {
    expect(await inspectFileBytes(new Uint8Array([0, 1, 2, 3, 0, 255]), 'blob.bin')).toMatchObject({
      ok: false,
      rejection: 'unsupported-type',
    });
  });

  it('counts PDF pages from the page objects and refuses too many', async () => {
    const pdf = (pages: number) =>
      text(
        `%PDF-1.4\n${Array.from({ length: pages }, (_, index) => `${index + 3} 0 obj << /Type /Page >> endobj`).join('\n')}\n1 0 obj << /Type /Pages /Count ${pages} >> endobj\n%%EOF`,
      );
    expect(pdfPageCount(pdf(3))).toBe(3);
    expect(await inspectFileBytes(pdf(2), 'a.pdf')).toEqual({ ok: true, mime: 'application/pdf', pages: 2 });
    expect(await inspectFileBytes(pdf(101), 'a.pdf')).toMatchObject({ ok: false, rejection: 'too-large' });
  });
});
