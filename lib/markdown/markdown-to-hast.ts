import type { Element, Root, RootContent } from 'hast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { highlightCode } from './highlight-code';
import { markdownUrlTransform } from './safe-url';

/** Everything markdown (with GFM and highlighting) can produce; raw HTML is never among it, it arrives as text. */
const ALLOWED_ELEMENTS = new Set(['a', 'blockquote', 'br', 'code', 'del', 'em', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'img', 'input', 'li', 'ol', 'p', 'pre', 'section', 'span', 'strong', 'sup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul']);
/** Properties that hold a URL in HTML; each goes through the scheme allow list. */
const URL_PROPERTIES = ['href', 'src', 'cite', 'poster', 'action', 'formAction', 'data', 'icon', 'manifest', 'ping', 'itemId'];

// Built and frozen once per page: a processor per render would run every plugin's setup again, about half
// the cost of parsing a small block, paid on every frame of a stream.
const plainProcessor = unified().use(remarkParse).use(remarkGfm).use(remarkRehype, { allowDangerousHtml: true }).freeze();
const highlightingProcessor = unified().use(remarkParse).use(remarkGfm).use(remarkRehype, { allowDangerousHtml: true }).use(highlightCode).freeze();

function transformUrls(element: Element): void {
  for (const property of URL_PROPERTIES) {
    if (Object.hasOwn(element.properties, property)) element.properties[property] = markdownUrlTransform(String(element.properties[property] ?? ''), property, element);
  }
}

/** Raw HTML becomes text, URLs pass the allow list, elements off the list are replaced by their children. */
function sanitize(parent: Root | Element): void {
  const children: RootContent[] = [];
  for (const child of parent.children) {
    if (child.type === 'raw') {
      children.push({ type: 'text', value: child.value });
      continue;
    }
    if (child.type !== 'element') {
      children.push(child);
      continue;
    }
    sanitize(child);
    transformUrls(child);
    if (ALLOWED_ELEMENTS.has(child.tagName)) children.push(child);
    else children.push(...child.children);
  }
  parent.children = children as typeof parent.children;
}

/** One markdown block as a safe HTML tree: GFM, optional code highlighting, no raw HTML, allow-listed URLs. */
export function markdownToHast(source: string, highlight: boolean): Root {
  const processor = highlight ? highlightingProcessor : plainProcessor;
  const tree = processor.runSync(processor.parse(source));
  sanitize(tree);
  return tree;
}
