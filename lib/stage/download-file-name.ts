/** The longest file name a download gets, in characters, its extension kept. */
export const DOWNLOAD_NAME_LIMIT = 120;

const EXTENSIONS: Record<string, string> = {
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/csv': 'csv',
  'text/html': 'html',
  'application/json': 'json',
  'application/pdf': 'pdf',
  'application/zip': 'zip',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
};

// Windows refuses these names whatever their extension, and the browser refuses to save under them.
const RESERVED = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\.|$)/i;
// eslint-disable-next-line no-control-regex -- control characters are exactly what a file name must not hold
const UNSAFE = /[\u0000-\u001f\u007f\\/:*?"<>|]+/g;

/** The last segment of a resource's URI, without its scheme, query or fragment, decoded: `file:///a/b.csv` → `b.csv`. */
export function uriFileName(uri: string): string {
  const path = uri.replace(/^[a-z][a-z0-9+.-]*:/i, '').replace(/[?#].*$/s, '');
  const segment = path.split(/[/\\]/).findLast((part) => part.length > 0) ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * A name the browser saves a file under, from the name or URI an app gave: one path segment (separators and
 * characters no file system takes become `-`), no leading dot (a hidden file) and no trailing dot or space, not a
 * reserved device name, at most `DOWNLOAD_NAME_LIMIT` characters, with the extension its type implies when it has none.
 */
export function downloadFileName(name: string, mimeType: string): string {
  const cleaned = name
    .replace(UNSAFE, '-')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+/, '')
    .replace(/[\s.]+$/, '');
  const base = cleaned === '' ? 'download' : RESERVED.test(cleaned) ? `_${cleaned}` : cleaned;
  const implied = EXTENSIONS[mimeType.split(';')[0].trim().toLowerCase()];
  const extension = /\.[a-z0-9]{1,10}$/i.exec(base)?.[0] ?? (implied ? `.${implied}` : '');
  const stem = base.endsWith(extension) ? base.slice(0, base.length - extension.length) : base;
  const kept = Array.from(stem)
    .slice(0, DOWNLOAD_NAME_LIMIT - extension.length)
    .join('')
    .replace(/[\s.]+$/, '');
  return `${kept || 'download'}${extension}`;
}
