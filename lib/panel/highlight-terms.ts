/** A text cut into the stretches that match one of `terms` (case-insensitively) and those that do not. */
export function highlightTerms(text: string, terms: readonly string[]): { text: string; match: boolean }[] {
  const wanted = [...new Set(terms.map((term) => term.toLowerCase()).filter((term) => term.length > 0))].sort(
    (left, right) => right.length - left.length,
  );
  if (wanted.length === 0) return text ? [{ text, match: false }] : [];
  const pattern = new RegExp(wanted.map(escapeRegExp).join('|'), 'giu');
  const parts: { text: string; match: boolean }[] = [];
  let last = 0;
  for (const found of text.matchAll(pattern)) {
    const start = found.index ?? 0;
    if (start > last) parts.push({ text: text.slice(last, start), match: false });
    parts.push({ text: found[0], match: true });
    last = start + found[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), match: false });
  return parts;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
