import type { Element, ElementContent, Root, RootContent } from 'hast';
import { common, createLowlight } from 'lowlight';
import { codeLanguage, nodeText } from './node-text';

// Registering grammars is costly: done once per page, not once per render as a plugin attacher would.
const lowlight = createLowlight(common);

function highlightBlock(code: Element): void {
  const language = codeLanguage(code.properties.className);
  if (!language || !lowlight.registered(language)) return;
  const tree = lowlight.highlight(language, nodeText(code), { prefix: 'hljs-' });
  code.properties.className = ['hljs', `language-${language}`];
  if (tree.children.length > 0) code.children = tree.children as ElementContent[];
}

function visit(node: Root | RootContent): void {
  if (node.type !== 'element' && node.type !== 'root') return;
  if (node.type === 'element' && node.tagName === 'pre') {
    const code = node.children.find((child): child is Element => child.type === 'element' && child.tagName === 'code');
    if (code) highlightBlock(code);
    return;
  }
  for (const child of node.children) visit(child);
}

/** A rehype plugin: syntax colours for fenced code with a known language (no guessing for unlabelled code). */
export function highlightCode() {
  return (tree: Root) => visit(tree);
}

export function isHighlightable(language: string): boolean {
  return lowlight.registered(language);
}
