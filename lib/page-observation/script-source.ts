/**
 * What of an address reaches the model as evidence: origin and path, never the query string, the fragment or
 * credentials (they carry tokens and form values). An http(s) or file address keeps its origin and path; a `data:`
 * or `javascript:` one only its scheme; what does not parse is cut short.
 */
export function originAndPath(url: string, maxLength = 300): string {
  const parsed = URL.parse(url);
  if (!parsed) return url.slice(0, Math.min(maxLength, 60));
  if (parsed.protocol === 'http:' || parsed.protocol === 'https:')
    return `${parsed.origin}${parsed.pathname}`.slice(0, maxLength);
  if (parsed.protocol === 'file:') return `file://${parsed.pathname}`.slice(0, maxLength);
  if (parsed.protocol === 'blob:') return `blob:${originAndPath(parsed.pathname, maxLength)}`.slice(0, maxLength);
  return parsed.protocol;
}

// Chrome writes `at f (https://a.example/app.js:12:5)`, Firefox `f@https://a.example/app.js:12:5`.
const STACK_FRAME = /((?:https?|file):\/\/[^\s()@]+?):(\d+):(\d+)/;

/**
 * The first frame of a stack that is the page's own script (`origin/path:line:column`); extension scripts (the
 * recorder itself, in a `chrome-extension:` or `moz-extension:` frame) never match.
 */
export function scriptSourceOf(stack: unknown): string | undefined {
  if (typeof stack !== 'string') return undefined;
  for (const line of stack.split('\n', 40)) {
    const frame = STACK_FRAME.exec(line);
    if (frame) return `${originAndPath(frame[1])}:${frame[2]}:${frame[3]}`;
  }
  return undefined;
}

/** A script address with its line and column, as `scriptSourceOf` writes it; undefined without an address. */
export function scriptSource(url: string, line: number, column: number): string | undefined {
  if (url === '') return undefined;
  return `${originAndPath(url)}:${line}:${column}`;
}
