/** The stretch of `text` around the first of `terms` it contains, cut at word boundaries, with ellipses. */
export function searchSnippet(text: string, terms: readonly string[], width = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= width) return flat;
  const lower = flat.toLowerCase();
  const found = terms
    .map((term) => lower.indexOf(term.toLowerCase()))
    .filter((index) => index >= 0)
    .sort((left, right) => left - right)[0];
  const center = found ?? 0;
  let start = Math.max(0, center - Math.floor(width / 3));
  let end = Math.min(flat.length, start + width);
  start = Math.max(0, end - width);
  if (start > 0) start = wordStart(flat, start);
  if (end < flat.length) end = wordEnd(flat, end);
  return `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
}

function wordStart(text: string, index: number): number {
  const space = text.indexOf(' ', index);
  return space >= 0 && space - index < 20 ? space + 1 : index;
}

function wordEnd(text: string, index: number): number {
  const space = text.lastIndexOf(' ', index);
  return space >= 0 && index - space < 20 ? space : index;
}
