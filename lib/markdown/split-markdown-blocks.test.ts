import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitMarkdownBlocks } from './split-markdown-blocks';

describe('splitMarkdownBlocks', () => {
  it('cuts paragraphs, headings and tables at blank lines', () => {
    const text = '# Title\n\nFirst paragraph\nstill first.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nLast';
    expect(splitMarkdownBlocks(text)).toEqual([
      '# Title\n\n',
      'First paragraph\nstill first.\n\n',
      '| a | b |\n|---|---|\n| 1 | 2 |\n\n',
      'Last',
    ]);
  });

  it('keeps a fenced code block with blank lines whole, also while it is still open', () => {
    const open = 'Intro\n\n```js\nconst a = 1;\n\nconst b = 2;\n';
    expect(splitMarkdownBlocks(open)).toEqual(['Intro\n\n', '```js\nconst a = 1;\n\nconst b = 2;\n']);
    const closed = `${open}\`\`\`\n\nAfter`;
    expect(splitMarkdownBlocks(closed)).toEqual(['Intro\n\n', '```js\nconst a = 1;\n\nconst b = 2;\n```\n\n', 'After']);
  });

  it('needs a closing fence at least as long as the opening one', () => {
    const text = '````\n```\n\nstill code\n````\n\nafter';
    expect(splitMarkdownBlocks(text)).toEqual(['````\n```\n\nstill code\n````\n\n', 'after']);
  });

  it('keeps loose lists and indented continuations in one block', () => {
    const text = '- one\n\n- two\n\n  more of two\n\n1. three\n\nNext';
    expect(splitMarkdownBlocks(text)).toEqual(['- one\n\n- two\n\n  more of two\n\n1. three\n\n', 'Next']);
  });

  it('keeps raw HTML blocks that span blank lines whole', () => {
    const text = '<script>\n\nwindow.x = 1\n</script>\n\nafter';
    expect(splitMarkdownBlocks(text)).toEqual(['<script>\n\nwindow.x = 1\n</script>\n\n', 'after']);
    expect(splitMarkdownBlocks('<!-- a\n\nb -->\n\nc')).toEqual(['<!-- a\n\nb -->\n\n', 'c']);
  });

  it('does not cut texts with definitions used by earlier blocks', () => {
    const text = 'See [the docs][1].\n\nMore.\n\n[1]: https://example.org';
    expect(splitMarkdownBlocks(text)).toEqual([text]);
    expect(splitMarkdownBlocks('Note[^1]\n\nx\n\n[^1]: foot')).toHaveLength(1);
  });

  it('returns nothing for an empty text', () => {
    expect(splitMarkdownBlocks('')).toEqual([]);
  });

  it('always gives the text back when the blocks are joined', () => {
    const piece = fc.constantFrom(
      'a',
      ' ',
      '\n',
      '\n\n',
      '```',
      '~~~',
      '- ',
      '1. ',
      '| x |',
      '<pre>',
      '</pre>',
      '<!--',
      '-->',
      '    ',
      '#',
      '[1]: u',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        const text = pieces.join('');
        const blocks = splitMarkdownBlocks(text);
        expect(blocks.join('')).toBe(text);
        expect(blocks.every((block) => block.length > 0)).toBe(true);
      }),
    );
  });

  it('only ever cuts where the text seen so far was cut too (appending never moves earlier cuts)', () => {
    const text = 'Para one.\n\n```py\nx = 1\n\ny = 2\n```\n\n- a\n\n- b\n\n| h |\n|---|\n| v |\n\nEnd *here*.';
    const final = splitMarkdownBlocks(text);
    for (let length = 0; length <= text.length; length++) {
      const partial = splitMarkdownBlocks(text.slice(0, length));
      const stable = partial.slice(0, -1);
      expect(final.slice(0, stable.length)).toEqual(stable);
    }
  });
});
