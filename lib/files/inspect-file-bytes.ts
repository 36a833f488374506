import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import type { UploadRejection } from '../protocol/upload-events';
import { INTAKE_LIMITS } from './file-limits';

import { isImageType, isTextType, PDF_TYPE } from './file-kinds';

export { IMAGE_TYPES, isImageType, isTextType, PDF_TYPE } from './file-kinds';

/** Text files are recognised by their bytes (valid UTF-8, no NUL); the name only picks which kind of text. */
const TEXT_TYPES_BY_EXTENSION: Record<string, string> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  svg: 'image/svg+xml',
  html: 'text/html',
  xml: 'text/xml',
};

export type FileInspection =
  | { ok: true; mime: string; width?: number; height?: number; pages?: number }
  | { ok: false; rejection: UploadRejection; reason: string; mime?: string };

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

function textType(bytes: Uint8Array, name: string): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  return TEXT_TYPES_BY_EXTENSION[extensionOf(name)] ?? 'text/plain';
}

/**
 * A page count read from the PDF's own page objects, without parsing the document. A PDF that keeps its page
 * objects in compressed object streams shows none of them; its count stays unknown rather than guessed.
 */
export function pdfPageCount(bytes: Uint8Array): number | undefined {
  const text = new TextDecoder('latin1').decode(bytes);
  const pages = text.match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
  return pages > 0 ? pages : undefined;
}

function describeType(mime: string | undefined): string {
  if (!mime) return 'not a file type this chat takes';
  if (mime === 'application/zip') return 'a ZIP archive';
  return mime;
}

function rejected(rejection: UploadRejection, reason: string, mime?: string): FileInspection {
  return { ok: false, rejection, reason, ...(mime ? { mime } : {}) };
}

/**
 * Sniffs the type from the bytes and checks size, pixel count (from the header, before any decode) and page
 * count. Nothing here decodes an image.
 */
export async function inspectFileBytes(bytes: Uint8Array, name: string): Promise<FileInspection> {
  if (bytes.byteLength > INTAKE_LIMITS.maxFileBytes)
    return rejected('too-large', `Larger than ${INTAKE_LIMITS.maxFileBytes / (1024 * 1024)} MB.`);
  const sniffed = await fileTypeFromBuffer(bytes);
  const mime = sniffed?.mime ?? textType(bytes, name);
  if (mime && isImageType(mime)) return inspectImage(bytes, mime);
  if (mime === PDF_TYPE) {
    const pages = pdfPageCount(bytes);
    if (pages !== undefined && pages > INTAKE_LIMITS.maxPdfPages)
      return rejected('too-large', `${pages} pages; at most ${INTAKE_LIMITS.maxPdfPages} are accepted.`, mime);
    return { ok: true, mime, ...(pages ? { pages } : {}) };
  }
  if (mime && isTextType(mime) && !sniffed) {
    if (bytes.byteLength > INTAKE_LIMITS.maxTextBytes)
      return rejected('too-large', `Text larger than ${INTAKE_LIMITS.maxTextBytes / (1024 * 1024)} MB.`, mime);
    return { ok: true, mime };
  }
  return rejected('unsupported-type', `Its bytes are ${describeType(mime)}.`, mime);
}

function inspectImage(bytes: Uint8Array, mime: string): FileInspection {
  let size: { width?: number; height?: number };
  try {
    size = imageSize(bytes);
  } catch {
    return rejected('unreadable', 'The image header could not be read.', mime);
  }
  const { width, height } = size;
  if (!width || !height) return rejected('unreadable', 'The image header has no size.', mime);
  if (width * height > INTAKE_LIMITS.maxPixels)
    return rejected(
      'too-many-pixels',
      `${width} × ${height} pixels; at most ${INTAKE_LIMITS.maxPixels / 1_000_000} megapixels are accepted.`,
      mime,
    );
  return { ok: true, mime, width, height };
}
