import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extendMarkdownBlocks, type MarkdownBlocks } from './extend-markdown-blocks';
import { splitMarkdownBlocks } from './split-markdown-blocks';

describe('extendMarkdownBlocks', () => {
  it('equals a full split at every step of a stream, however it is chunked', () => {
    const piece = fc.constantFrom(
      'a',
      'b c',
      ' ',
      '\n',
      '\n\n',
      '```',
      '~~~',
      '- ',
      '1',
      '1. ',
      '.',
      '| x |',
      '<pre>',
      '</pre>',
      '    ',
      '#',
      '[1]: u',
      '*',
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 80 }),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 20 }),
        (pieces, steps) => {
          const text = pieces.join('');
          let blocks: MarkdownBlocks | undefined;
          let length = 0;
          let step = 0;
          while (length < text.length) {
            length = Math.min(text.length, length + steps[step++ % steps.length]);
            blocks = extendMarkdownBlocks(blocks, text.slice(0, length));
            expect(blocks.blocks).toEqual(splitMarkdownBlocks(text.slice(0, length)));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('starts over when the text does not extend the previous one', () => {
    const first = extendMarkdownBlocks(undefined, 'a\n\nb\n\nc\n\nd');
    expect(extendMarkdownBlocks(first, 'x\n\ny').blocks).toEqual(['x\n\n', 'y']);
  });
});
