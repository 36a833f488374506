const ALLOWED_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);
const IMAGE_PROTOCOLS = new Set(['http:', 'https:']);
// Browsers strip control characters and spaces before parsing a URL, so "java\tscript:" is still javascript:.
function withoutIgnoredCharacters(value: string): string {
  return Array.from(value)
    .filter((character) => {
      const code = character.codePointAt(0) ?? 0;
      return code > 0x20 && (code < 0x7f || code > 0x9f);
    })
    .join('');
}

function parseAbsolute(value: string): URL | undefined {
  const cleaned = withoutIgnoredCharacters(value);
  if (!/^[a-z][a-z\d+.-]*:/i.test(cleaned)) return undefined;
  try {
    return new URL(cleaned);
  } catch {
    return undefined;
  }
}

/**
 * The href a model-written link may carry: an absolute http, https or mailto URL, or a fragment
 * inside the same message (footnotes). Anything else (javascript:, data:, relative paths that would
 * resolve to extension pages) yields undefined and the link is shown as plain text.
 */
export function safeLinkUrl(value: string): string | undefined {
  const trimmed = value.trim();
  if (/^#[\w-]*$/.test(trimmed)) return trimmed;
  const url = parseAbsolute(trimmed);
  return url && ALLOWED_PROTOCOLS.has(url.protocol) ? url.href : undefined;
}

/** An image source may only be an absolute http(s) URL; it is still fetched only when the user asks. */
export function safeImageUrl(value: string): string | undefined {
  const url = parseAbsolute(value.trim());
  return url && IMAGE_PROTOCOLS.has(url.protocol) ? url.href : undefined;
}

export function isFragmentLink(href: string): boolean {
  return href.startsWith('#');
}

/** The host a URL points to, as shown to the user before anything is fetched from it. */
export function urlHost(value: string): string {
  try {
    return new URL(value).host || value;
  } catch {
    return value;
  }
}

/** For react-markdown's `urlTransform`: unsafe URLs become empty, which the link and image renderers treat as blocked. */
export function markdownUrlTransform(value: string, key: string, node: { tagName: string }): string {
  if (node.tagName === 'img' && key === 'src') return safeImageUrl(value) ?? '';
  return safeLinkUrl(value) ?? '';
}
