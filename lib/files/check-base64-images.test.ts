import { describe, expect, it } from 'vitest';
import { pngHeader } from '../../tests/support/png-header';
import { patternPng } from '../../tests/support/test-files';
import { bytesToBase64 } from './bytes-to-base64';
import { checkBase64Images } from './check-base64-images';
import { sha256Hex } from './sha256-hex';

const png = new Uint8Array(patternPng(8, 6, 3));
const base64 = bytesToBase64(png);
const options = { name: 'showCounter-image', maxBytes: 1024 * 1024 };

describe('checkBase64Images', () => {
  it('decodes each image, sniffs its type and names it, with the BlobRef of its bytes', async () => {
    const sha256 = await sha256Hex(png);
    expect(await checkBase64Images([{ data: base64, mimeType: 'image/png' }], options)).toEqual({
      ok: true,
      images: [
        {
          bytes: png,
          ref: {
            blobId: sha256,
            sha256,
            mime: 'image/png',
            size: png.byteLength,
            name: 'showCounter-image-1.png',
            width: 8,
            height: 6,
          },
        },
      ],
    });
  });

  it('refuses them all for one image whose declared type is not an image type the chat takes', async () => {
    const check = await checkBase64Images(
      [
        { data: base64, mimeType: 'image/png' },
        { data: base64, mimeType: 'image/svg+xml' },
      ],
      options,
    );
    expect(check).toEqual({
      ok: false,
      reason: 'Image 2 is declared image/svg+xml; only PNG, JPEG, WebP and GIF are taken.',
    });
  });

  it('trusts the bytes, not the declared type: a PNG declared JPEG and text declared PNG are refused', async () => {
    expect(await checkBase64Images([{ data: base64, mimeType: 'image/jpeg' }], options)).toEqual({
      ok: false,
      reason: 'Image 1 is declared image/jpeg, but its bytes are image/png.',
    });
    const text = bytesToBase64(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'));
    expect(await checkBase64Images([{ data: text, mimeType: 'image/png' }], options)).toEqual({
      ok: false,
      reason: 'Image 1 is declared image/png, but its bytes are text/plain.',
    });
  });

  it('refuses what is not base64, too many bytes in all, and too many pixels, from the header', async () => {
    expect(await checkBase64Images([{ data: '***', mimeType: 'image/png' }], options)).toEqual({
      ok: false,
      reason: 'Image 1 is not base64 data.',
    });
    const three = Array.from({ length: 3 }, () => ({ data: base64, mimeType: 'image/png' }));
    expect(await checkBase64Images(three, { ...options, maxBytes: png.byteLength * 2 })).toEqual({
      ok: false,
      reason: `The images have more than ${png.byteLength * 2} B in all.`,
    });
    const huge = bytesToBase64(pngHeader(20_000, 20_000));
    expect(await checkBase64Images([{ data: huge, mimeType: 'image/png' }], options)).toEqual({
      ok: false,
      reason: 'Image 1 is refused: 20000 × 20000 pixels; at most 50 megapixels are accepted.',
    });
  });
});
