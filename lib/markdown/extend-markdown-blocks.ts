import { hasDefinitions, splitMarkdownBlocks } from './split-markdown-blocks';

export interface MarkdownBlocks {
  text: string;
  blocks: string[];
}

/**
 * `splitMarkdownBlocks(text)`, reusing the blocks of a previous text that this one extends. Only the last
 * two blocks and what was appended are scanned again (the cut before the last block may still move while
 * its first line is being typed), so a streaming message costs the same per frame however long it grew.
 */
export function extendMarkdownBlocks(previous: MarkdownBlocks | undefined, text: string): MarkdownBlocks {
  if (!previous || previous.blocks.length < 3 || !text.startsWith(previous.text))
    return { text, blocks: splitMarkdownBlocks(text).map(detached) };
  const kept = previous.blocks.slice(0, -2);
  const keptLength = kept.reduce((length, block) => length + block.length, 0);
  const rest = text.slice(keptLength);
  if (hasDefinitions(rest)) return { text, blocks: splitMarkdownBlocks(text).map(detached) };
  return { text, blocks: [...kept, ...splitMarkdownBlocks(rest).map(detached)] };
}

/**
 * A slice of a long string keeps the whole string alive in V8. Each frame's text is a new string, so kept
 * blocks sliced from it would pin one copy of the message per block; a block is copied out instead.
 */
function detached(block: string): string {
  return `${block}\u0000`.slice(0, -1);
}
