import { decodePng } from './decode-png';

export interface SentFile {
  mime: string;
  bytes: Buffer;
}

/** Every file a request body sent the model: data URLs, and base64 fields beside a media type. */
export function filesIn(value: unknown, found: SentFile[] = []): SentFile[] {
  if (typeof value === 'string') {
    const match = /^data:([^;,]+);base64,(.*)$/s.exec(value);
    if (match) found.push({ mime: match[1], bytes: Buffer.from(match[2], 'base64') });
    return found;
  }
  if (Array.isArray(value)) {
    for (const item of value) filesIn(item, found);
    return found;
  }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const mime = record.media_type ?? record.mimeType ?? record.mediaType;
    if (typeof mime === 'string' && typeof record.data === 'string' && !record.data.startsWith('data:'))
      found.push({ mime, bytes: Buffer.from(record.data, 'base64') });
    for (const item of Object.values(record)) filesIn(item, found);
  }
  return found;
}

/** Every image a request body sent the model. */
export function imagesIn(value: unknown): SentFile[] {
  return filesIn(value).filter((file) => file.mime.startsWith('image/'));
}

/**
 * A PNG's size and every pixel's RGBA, as text: an image re-encoded without loss (as the panel re-encodes each
 * image before sending, dropping its metadata) reads the same as the original.
 */
export function pngPixels(bytes: Uint8Array): string {
  const png = decodePng(bytes);
  const pixels: number[] = [];
  for (let y = 0; y < png.height; y++) for (let x = 0; x < png.width; x++) pixels.push(...png.pixel(x, y));
  return `${png.width}x${png.height}:${Buffer.from(pixels).toString('base64')}`;
}
