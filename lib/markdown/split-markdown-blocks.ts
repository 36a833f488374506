const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const LIST_ITEM = /^ {0,3}([*+-]|\d{1,9}[.)])(\s|$)/;
const RAW_HTML_OPEN = /^ {0,3}<(script|pre|style|textarea)(\s|>|$)/i;
const COMMENT_OPEN = /^ {0,3}<!--/;
// Definitions may come after the blocks that use them; such texts are parsed whole.
const DEFINITION = /^ {0,3}\[(\^[^\]]+|[^\]]+)\]:/m;

interface Fence {
  marker: string;
}

function closesFence(line: string, fence: Fence): boolean {
  const trimmed = line.replace(/^ {0,3}/, '').trimEnd();
  return trimmed.length >= fence.marker.length && trimmed[0] === fence.marker[0] && /^(`+|~+)$/.test(trimmed);
}

function openingFence(line: string): Fence | undefined {
  const match = FENCE_OPEN.exec(line);
  if (!match) return undefined;
  if (match[1][0] === '`' && match[2].includes('`')) return undefined;
  return { marker: match[1] };
}

/** Which raw HTML construct (escaped as text, never rendered) spans blank lines until its end marker. */
function rawHtmlEnd(line: string): RegExp | undefined {
  if (COMMENT_OPEN.test(line)) return /-->/;
  const match = RAW_HTML_OPEN.exec(line);
  return match ? new RegExp(`</${match[1]}>`, 'i') : undefined;
}

/** Link or footnote definitions: blocks before them may use them, so such texts are never cut. */
export function hasDefinitions(text: string): boolean {
  return DEFINITION.test(text);
}

function lines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/**
 * Cuts markdown into top-level blocks at blank lines where the text before can no longer change
 * meaning, whatever is appended later. Concatenating the blocks gives the text back. Fenced code,
 * raw HTML blocks, indented continuations and loose lists are never cut; texts with link or
 * footnote definitions stay whole.
 */
export function splitMarkdownBlocks(text: string): string[] {
  if (hasDefinitions(text)) return text ? [text] : [];
  const blocks: string[] = [];
  let start = 0;
  let offset = 0;
  let fence: Fence | undefined;
  let rawEnd: RegExp | undefined;
  let afterBlank = false;
  let blockHasList = false;
  for (const rawLine of lines(text)) {
    const lineStart = offset;
    offset += rawLine.length;
    const line = rawLine.replace(/\r?\n$/, '');
    if (fence) {
      if (closesFence(line, fence)) fence = undefined;
      continue;
    }
    if (rawEnd) {
      if (rawEnd.test(line)) rawEnd = undefined;
      continue;
    }
    if (line.trim() === '') {
      afterBlank = lineStart > start;
      continue;
    }
    const isListItem = LIST_ITEM.test(line);
    if (afterBlank && !/^\s/.test(line) && !(isListItem && blockHasList)) {
      blocks.push(text.slice(start, lineStart));
      start = lineStart;
      blockHasList = false;
    }
    afterBlank = false;
    if (isListItem) blockHasList = true;
    fence = openingFence(line);
    if (!fence) rawEnd = rawHtmlEnd(line);
    if (rawEnd?.test(line.replace(/^[^>]*>/, ''))) rawEnd = undefined;
  }
  if (start < text.length) blocks.push(text.slice(start));
  return blocks;
}
