/**
 * The ends of the tool-call fences that @browser-ai/core's tool-call emulation looks for. Its streaming parser
 * (2.1.13) spins forever when a chunk inside a fence ends with a part of the closing marker ("``" of "```"),
 * which freezes the page; `fenceSafeChunks` never lets a chunk end that way.
 */
const FENCE_ENDS = ['```', '</tool_call>', '<tool_call|>', ')]'];

/** The length of the longest end of `text` that is a proper prefix of a fence end (0 after a whole one). */
export function partialFenceEndLength(text: string): number {
  if (FENCE_ENDS.some((end) => text.endsWith(end))) return 0;
  let longest = 0;
  for (const end of FENCE_ENDS) {
    for (let size = Math.min(text.length, end.length - 1); size > longest; size--) {
      if (end.startsWith(text.slice(-size))) {
        longest = size;
        break;
      }
    }
  }
  return longest;
}

/**
 * The same text in chunks none of which ends with part of a fence end: such a tail waits for the next chunk.
 * A stream that ends on one gets a newline after it, so the parser sees a whole line.
 */
export async function* fenceSafeChunks(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let pending = '';
  for await (const chunk of chunks) {
    pending += chunk;
    const held = partialFenceEndLength(pending);
    if (pending.length > held) {
      yield pending.slice(0, pending.length - held);
      pending = pending.slice(pending.length - held);
    }
  }
  if (pending) yield `${pending}\n`;
}
