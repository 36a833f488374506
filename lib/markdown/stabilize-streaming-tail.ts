const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})([^\n]*)$/;
const FENCE_PREFIX = /^ {0,3}(`{1,2}|~{1,2})$/;
const TABLE_ROW = /^ {0,3}\|/;
const DELIMITER_ROW = /^ {0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

export interface StreamingTail {
  /** What to render now: the tail with half-typed syntax held back or closed. */
  source: string;
  /** The tail is an unfinished fenced code block (rendered without highlighting until it closes). */
  openFence: boolean;
}

function openFenceMarker(text: string): string | undefined {
  let marker: string | undefined;
  for (const line of text.split('\n')) {
    if (marker) {
      const trimmed = line.replace(/^ {0,3}/, '').trimEnd();
      if (trimmed.length >= marker.length && trimmed[0] === marker[0] && /^(`+|~+)$/.test(trimmed)) marker = undefined;
      continue;
    }
    const match = FENCE_OPEN.exec(line);
    if (match && !(match[1][0] === '`' && match[2].includes('`'))) marker = match[1];
  }
  return marker;
}

function splitLastLine(text: string): [string, string] {
  const cut = text.lastIndexOf('\n') + 1;
  return [text.slice(0, cut), text.slice(cut)];
}

/** A table shows up row by row: a half-typed row, or a header still waiting for its delimiter row, is held back. */
function holdBackTableRows(text: string): string {
  let [done, last] = splitLastLine(text);
  if (
    last !== '' &&
    (TABLE_ROW.test(last) || (last.includes('|') && TABLE_ROW.test(splitLastLine(done.slice(0, -1))[1])))
  )
    last = '';
  const completeLines = done.split('\n').slice(0, -1);
  const lastComplete = completeLines.at(-1) ?? '';
  const beforeIt = completeLines.at(-2);
  const headerWaiting =
    TABLE_ROW.test(lastComplete) &&
    !DELIMITER_ROW.test(lastComplete) &&
    (beforeIt === undefined || beforeIt.trim() === '');
  if (headerWaiting && last === '')
    done = completeLines.slice(0, -1).join('\n') + (completeLines.length > 1 ? '\n' : '');
  return done + last;
}

function countOutsideCode(line: string, token: string): number {
  let count = 0;
  let inCode = false;
  for (let index = 0; index < line.length; index++) {
    if (line[index] === '`') {
      inCode = !inCode;
      continue;
    }
    if (!inCode && line.startsWith(token, index)) {
      count += 1;
      index += token.length - 1;
    }
  }
  return count;
}

/** A link, image or emphasis whose closing syntax has not arrived yet shows as its text, never as raw brackets. */
function closeInlineSyntax(line: string): string {
  let result = line;
  const backticks = (result.match(/`/g) ?? []).length;
  if (backticks % 2 === 1) return result.endsWith('`') ? result.slice(0, -1) : `${result}\``;
  result = result.replace(/!\[[^\]\n]*(\]\([^)\s]*)?$/, '');
  result = result.replace(/!\[[^\]\n]*\]$/, '');
  result = result.replace(/\[([^\]\n]*)\]\([^)\s]*$/, '$1');
  result = result.replace(/\[([^\]\n]*)\]?$/, '$1');
  for (const token of ['**', '~~']) {
    if (countOutsideCode(result, token) % 2 === 0) continue;
    result = result.endsWith(token) ? result.slice(0, -token.length).trimEnd() : `${result.trimEnd()}${token}`;
  }
  return result;
}

/**
 * Prepares the one block that is still streaming so that every intermediate render looks like a prefix of
 * the final one: an open code fence is closed, a half-typed table row or fence marker is held back, and an
 * unfinished link or emphasis shows as plain text. The completed message is always rendered from its exact text.
 */
export function stabilizeStreamingTail(tail: string): StreamingTail {
  const marker = openFenceMarker(tail);
  if (marker) return { source: `${tail}${tail.endsWith('\n') ? '' : '\n'}${marker}`, openFence: true };
  const [done, last] = splitLastLine(tail);
  if (FENCE_PREFIX.test(last)) return { source: done, openFence: false };
  const rows = holdBackTableRows(tail);
  if (rows !== tail) return { source: rows, openFence: false };
  return { source: done + closeInlineSyntax(last), openFence: false };
}
