interface TextNode {
  type: string;
  value?: string;
  children?: readonly TextNode[];
}

/** The plain text under a hast node, e.g. the code inside a `<pre>` for the copy button. */
export function nodeText(node: TextNode | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return node.value ?? '';
  return (node.children ?? []).map(nodeText).join('');
}

/** `language-ts` (and highlight.js's `hljs`) classes → `ts`. */
export function codeLanguage(className: unknown): string | undefined {
  const classes = Array.isArray(className)
    ? className.map(String)
    : typeof className === 'string'
      ? className.split(/\s+/)
      : [];
  const language = classes.find((name) => name.startsWith('language-'));
  return language ? language.slice('language-'.length) : undefined;
}
