import { memo, useMemo } from 'react';
import Markdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import type { PluggableList } from 'unified';
import { hasLabelledFence } from '@/lib/markdown/load-highlighter';
import { markdownUrlTransform } from '@/lib/markdown/safe-url';
import { markdownComponents } from './markdown-components';
import { useHighlighter } from './use-highlighter';

const REMARK_PLUGINS: PluggableList = [remarkGfm];
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
  const highlighter = useHighlighter(highlight && hasLabelledFence(source));
  const rehypePlugins = useMemo(() => (highlighter ? [highlighter] : NO_HIGHLIGHT), [highlighter]);
  return (
    <Markdown
      remarkPlugins={REMARK_PLUGINS}
      rehypePlugins={rehypePlugins}
      urlTransform={markdownUrlTransform}
      components={markdownComponents}
      allowedElements={ALLOWED_ELEMENTS}
      unwrapDisallowed
    >
      {source}
    </Markdown>
  );
});
