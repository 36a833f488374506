/**
 * Page text is data. It reaches the model only between two fence lines that carry a marker drawn at random for
 * each tool call; any occurrence of the marker in the page's own text is removed first, so the page cannot close
 * the fence early and write outside it.
 */
export interface PageFence {
  marker: string;
  wrap(text: string): string;
}

export const FENCE_OPEN = 'PAGE-DATA';
export const FENCE_CLOSE = 'END-PAGE-DATA';

/** `randomHex` gives fresh random hex digits (16 bytes or more) for each call. */
export function newPageFence(randomHex: () => string): PageFence {
  const marker = randomHex();
  return { marker, wrap: (text) => fenceText(text, marker) };
}

export function fenceText(text: string, marker: string): string {
  return `<<${FENCE_OPEN} ${marker}>>\n${withoutMarker(text, marker)}\n<<${FENCE_CLOSE} ${marker}>>`;
}

function withoutMarker(text: string, marker: string): string {
  let result = text;
  const pattern = new RegExp(marker, 'gi');
  // Removing one occurrence can join two halves into another: repeat until none is left.
  while (pattern.test(result)) result = result.replace(pattern, '');
  return result;
}

/** Every stretch of `text` that lies inside a fence of this marker, and what lies outside all of them. */
export function splitByFence(text: string, marker: string): { inside: string[]; outside: string } {
  const open = `<<${FENCE_OPEN} ${marker}>>`;
  const close = `<<${FENCE_CLOSE} ${marker}>>`;
  const inside: string[] = [];
  let outside = '';
  let rest = text;
  for (;;) {
    const start = rest.indexOf(open);
    if (start < 0) break;
    const end = rest.indexOf(close, start + open.length);
    if (end < 0) break;
    outside += rest.slice(0, start);
    inside.push(rest.slice(start + open.length, end));
    rest = rest.slice(end + close.length);
  }
  return { inside, outside: outside + rest };
}
