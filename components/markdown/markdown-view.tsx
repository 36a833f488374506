import { memo, useRef } from 'react';
import { extendMarkdownBlocks, type MarkdownBlocks } from '@/lib/markdown/extend-markdown-blocks';
import { stabilizeStreamingTail } from '@/lib/markdown/stabilize-streaming-tail';
import { MarkdownBlock } from './markdown-block';

/**
 * A message's markdown. While it streams, finished blocks are parsed once and kept; only the last block is
 * parsed again, with half-typed syntax held back. A finished message is rendered from its exact text.
 * Both go through the same safe pipeline.
 */
export const MarkdownView = memo(function MarkdownView({ text, streaming }: { text: string; streaming: boolean }) {
  const split = useRef<MarkdownBlocks>(undefined);
  if (!streaming) {
    split.current = undefined;
    return (
      <div className="markdown">
        <MarkdownBlock source={text} highlight />
      </div>
    );
  }
  split.current = extendMarkdownBlocks(split.current, text);
  const { blocks } = split.current;
  const tail = stabilizeStreamingTail(blocks.at(-1) ?? '');
  return (
    <div className="markdown">
      {blocks.slice(0, -1).map((block, index) => (
        <MarkdownBlock key={index} source={block} highlight />
      ))}
      <MarkdownBlock key={Math.max(0, blocks.length - 1)} source={tail.source} highlight={!tail.openFence} />
    </div>
  );
});
