import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { splitMarkdownBlocks } from './split-markdown-blocks';

interface HastLike {
  type: string;
  tagName?: string;
  value?: string;
  properties?: Record<string, unknown>;
  children?: HastLike[];
}

const processor = unified().use(remarkParse).use(remarkGfm).use(remarkRehype);

/** The rendered element tree, without positions and the line-ending text nodes between blocks. */
function rendered(markdown: string): unknown[] {
  const tree = processor.runSync(processor.parse(markdown)) as HastLike;
  const strip = (node: HastLike): unknown =>
    node.type === 'element'
      ? {
          tag: node.tagName,
          properties: node.properties,
          children: (node.children ?? []).filter(meaningful).map(strip),
        }
      : { type: node.type, value: node.value };
  const meaningful = (node: HastLike) => !(node.type === 'text' && /^\n*$/.test(node.value ?? ''));
  return (tree.children ?? []).filter(meaningful).map(strip);
}

const documents = [
  '# Plan\n\nFirst I read the parameters.\n\n1. speed\n2. mode\n\n```json\n{ "speed": 12 }\n```\n\nDone.',
  '| param | value |\n|:--|--:|\n| speed | 12 |\n\n> quoted\n> still quoted\n\nafter',
  '- a\n\n- b\n\n  continued\n\n- c\n\nText *em* **strong** ~~del~~ `code`',
  'Setext\n======\n\n    indented code\n\n    more code\n\npara',
  'List:\n- x\n- y\n\nnot a list\n\n* [ ] task\n* [x] done',
  '<div>\n\n*inside*\n\n</div>\n\n<script>\n\nwindow.__pwned = 1\n</script>\n\ntext',
  'A line\nwith a lazy\ncontinuation\n\n***\n\nhttps://example.org autolink',
];

describe('rendering the blocks one by one', () => {
  it.each(documents)('equals rendering the whole text: %j', (markdown) => {
    const separately = splitMarkdownBlocks(markdown).flatMap(rendered);
    expect(separately).toEqual(rendered(markdown));
  });
});
