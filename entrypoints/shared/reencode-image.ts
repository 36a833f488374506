import type { ReencodeImage } from '@/lib/files/model-file-content';

/** Lossless formats stay PNG; photos stay JPEG (WebP where the browser encodes it, else PNG). */
function outputType(mime: string): string {
  if (mime === 'image/jpeg') return 'image/jpeg';
  if (mime === 'image/webp') return 'image/webp';
  return 'image/png';
}

/**
 * Decodes the image and draws it again at most `maxEdge` on its longest side: the new file carries the
 * pixels only, no EXIF, GPS or other metadata. Over `maxBytes`, it is encoded again as JPEG at lower
 * quality, then smaller, until it fits.
 */
export const reencodeImage: ReencodeImage = async (bytes, mime, { maxEdge, maxBytes }) => {
  const bitmap = await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mime }));
  try {
    let scale = Math.min(1, maxEdge / Math.max(bitmap.width, bitmap.height));
    let type = outputType(mime);
    let quality = 0.92;
    for (let attempt = 0; attempt < 8; attempt++) {
      const width = Math.max(1, Math.round(bitmap.width * scale));
      const height = Math.max(1, Math.round(bitmap.height * scale));
      const canvas = new OffscreenCanvas(width, height);
      const context = canvas.getContext('2d');
      if (!context) throw new Error('No 2D canvas to re-encode the image.');
      context.drawImage(bitmap, 0, 0, width, height);
      const blob = await canvas.convertToBlob({ type, quality });
      if (blob.size <= maxBytes) return { bytes: new Uint8Array(await blob.arrayBuffer()), mime: blob.type || type };
      if (type !== 'image/jpeg') type = 'image/jpeg';
      else if (quality > 0.6) quality -= 0.15;
      else scale *= 0.75;
    }
    throw new Error('The image could not be made small enough for this endpoint.');
  } finally {
    bitmap.close();
  }
};
