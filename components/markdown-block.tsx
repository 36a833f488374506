import { memo } from 'react';
import Markdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import type { PluggableList } from 'unified';
import { highlightCode } from '@/lib/markdown/highlight-code';
import { markdownUrlTransform } from '@/lib/markdown/safe-url';
import { markdownComponents } from './markdown-components';

const REMARK_PLUGINS: PluggableList = [remarkGfm];
const HIGHLIGHT: PluggableList = [highlightCode];
const NO_HIGHLIGHT: PluggableList = [];
/** Everything markdown (with GFM and highlighting) can produce; raw HTML is never among it, it arrives as text. */
const ALLOWED_ELEMENTS = [
  'a',
  'blockquote',
  'br',
  'code',
  'del',
  'em',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'img',
  'input',
  'li',
  'ol',
  'p',
  'pre',
  'section',
  'span',
  'strong',
  'sup',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
];

/** One markdown block, parsed only when its source changes. */
export const MarkdownBlock = memo(function MarkdownBlock({
  source,
  highlight,
}: {
  source: string;
  highlight: boolean;
}) {
  return (
    <Markdown
      remarkPlugins={REMARK_PLUGINS}
      rehypePlugins={highlight ? HIGHLIGHT : NO_HIGHLIGHT}
      urlTransform={markdownUrlTransform}
      components={markdownComponents}
      allowedElements={ALLOWED_ELEMENTS}
      unwrapDisallowed
    >
      {source}
    </Markdown>
  );
});
