import { toJsxRuntime, type Components } from 'hast-util-to-jsx-runtime';
import { memo } from 'react';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';
import { markdownToHast } from '@/lib/markdown/markdown-to-hast';
import { markdownComponents } from './markdown-components';

const COMPONENTS = markdownComponents as Partial<Components>;

/** One markdown block, parsed only when its source changes. */
export const MarkdownBlock = memo(function MarkdownBlock({ source, highlight }: { source: string; highlight: boolean }) {
  return toJsxRuntime(markdownToHast(source, highlight), { Fragment, components: COMPONENTS, ignoreInvalidStyle: true, jsx, jsxs, passKeys: true, passNode: true });
});
