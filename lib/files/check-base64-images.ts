import { decodeBase64 } from '../protocol/decode-base64';
import type { BlobRef } from '../protocol/blob-ref';
import { isImageType } from './file-kinds';
import { formatFileSize } from './format-file-size';
import { inspectFileBytes } from './inspect-file-bytes';
import { blobRefOf } from './store-bytes';

/** An image as something outside the extension gives it: base64 bytes and the type it declares. */
export interface Base64Image {
  data: string;
  mimeType: string;
}

/** An image whose bytes passed every check, with the BlobRef it is stored under. */
export interface CheckedImage {
  bytes: Uint8Array;
  ref: BlobRef;
}

export type ImagesCheck = { ok: true; images: CheckedImage[] } | { ok: false; reason: string };

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/**
 * Decodes and checks every image before any is kept, so that one bad image refuses them all: the declared type
 * must be an image type the chat takes, the bytes must be one too (sniffed, as attached files are, with the same
 * size and pixel limits, nothing decoded), and both must agree; at most `maxBytes` in all. Each is named
 * `<name>-<n>.<extension>`.
 */
export async function checkBase64Images(
  images: readonly Base64Image[],
  options: { name: string; maxBytes: number },
): Promise<ImagesCheck> {
  const checked: CheckedImage[] = [];
  let total = 0;
  for (const [index, image] of images.entries()) {
    const which = `Image ${index + 1}`;
    if (!isImageType(image.mimeType))
      return { ok: false, reason: `${which} is declared ${image.mimeType}; only PNG, JPEG, WebP and GIF are taken.` };
    const bytes = decodeBase64(image.data);
    if (!bytes || bytes.byteLength === 0) return { ok: false, reason: `${which} is not base64 data.` };
    total += bytes.byteLength;
    if (total > options.maxBytes)
      return { ok: false, reason: `The images have more than ${formatFileSize(options.maxBytes)} in all.` };
    const inspection = await inspectFileBytes(bytes, '');
    if (!inspection.ok) return { ok: false, reason: `${which} is refused: ${inspection.reason}` };
    if (inspection.mime !== image.mimeType)
      return { ok: false, reason: `${which} is declared ${image.mimeType}, but its bytes are ${inspection.mime}.` };
    const name = `${options.name}-${index + 1}.${EXTENSIONS[inspection.mime]}`;
    checked.push({ bytes, ref: await blobRefOf(bytes, name, inspection) });
  }
  return { ok: true, images: checked };
}
