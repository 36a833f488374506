import type { Element } from 'hast';
import type { ComponentPropsWithoutRef } from 'react';
import type { Components } from 'react-markdown';
import { isFragmentLink } from '@/lib/markdown/safe-url';
import { codeLanguage, nodeText } from '@/lib/markdown/node-text';
import { CopyButton } from './copy-button';
import { ExternalImage } from './external-image';

type WithNode<TTag extends keyof React.JSX.IntrinsicElements> = ComponentPropsWithoutRef<TTag> & { node?: Element };

function MarkdownLink({ href, children, title }: WithNode<'a'>) {
  if (!href) {
    return (
      <span className="blocked-link" title="Link removed: only http, https and mailto links are allowed">
        {children}
      </span>
    );
  }
  if (isFragmentLink(href)) return <a href={href}>{children}</a>;
  return (
    <a href={href} title={title ?? href} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  );
}

function MarkdownImage({ src, alt }: WithNode<'img'>) {
  return <ExternalImage src={typeof src === 'string' && src ? src : undefined} alt={alt} />;
}

function CodeBlock({ node, children }: WithNode<'pre'>) {
  const code = node?.children.find((child): child is Element => child.type === 'element' && child.tagName === 'code');
  const language = codeLanguage(code?.properties.className);
  return (
    <div className="code-block" data-language={language ?? 'text'}>
      <CopyButton text={nodeText(code).replace(/\n$/, '')} />
      <pre>{children}</pre>
    </div>
  );
}

function ScrollingTable({ children }: WithNode<'table'>) {
  return (
    <div className="table-scroll">
      <table>{children}</table>
    </div>
  );
}

function TaskCheckbox({ type, checked }: WithNode<'input'>) {
  return type === 'checkbox' ? <input type="checkbox" checked={Boolean(checked)} disabled readOnly /> : null;
}

export const markdownComponents: Components = {
  a: MarkdownLink,
  img: MarkdownImage,
  pre: CodeBlock,
  table: ScrollingTable,
  input: TaskCheckbox,
};
