import type { PageTreeNode } from './page-tree-node';

const MAX_NAME = 300;

/** A name or text as a double-quoted string, escaped like JSON so page text cannot end the quote or the line. */
export function quoteTreeText(text: string): string {
  const clipped = text.length > MAX_NAME ? `${text.slice(0, MAX_NAME)}…` : text;
  return JSON.stringify(clipped);
}

function flag(name: string, value: boolean | 'mixed' | undefined): string[] {
  if (value === true) return [`[${name}]`];
  if (value === 'mixed') return [`[${name}=mixed]`];
  return [];
}

/** The `[…]` attributes in Playwright's order, then ours, then the ref. */
function attributes(node: PageTreeNode): string[] {
  return [
    ...flag('checked', node.checked),
    ...flag('disabled', node.disabled),
    ...flag('expanded', node.expanded),
    ...(node.level === undefined ? [] : [`[level=${node.level}]`]),
    ...flag('pressed', node.pressed),
    ...flag('selected', node.selected),
    ...(node.value === undefined || node.value === '' ? [] : [`[value=${quoteTreeText(node.value)}]`]),
    ...(node.hiddenText ? ['[hidden-text]'] : []),
    ...(node.clickable ? ['[clickable]'] : []),
    ...(node.ref === undefined ? [] : [`[ref=${node.ref}]`]),
  ];
}

/**
 * One line of the page tree, Playwright aria-snapshot style with two spaces per level:
 * `- button "Submit" [disabled] [ref=e12]`, `- generic "Eget" [clickable] [ref=e7]`, `- link "Docs" [ref=e5]: /url: /docs`, `- text: Some words`.
 */
export function formatTreeLine(node: PageTreeNode, depth: number): string {
  const indent = '  '.repeat(depth);
  if (node.role === 'text') {
    const marks = node.hiddenText ? ' [hidden-text]' : '';
    return `${indent}- text${marks}: ${plainOrQuoted(node.name)}`;
  }
  const head = [node.role, ...(node.name ? [quoteTreeText(node.name)] : []), ...attributes(node)].join(' ');
  const tail =
    node.url !== undefined
      ? `: /url: ${quoteUrl(node.url)}`
      : node.text !== undefined
        ? `: ${plainOrQuoted(node.text)}`
        : node.children.length > 0
          ? ':'
          : '';
  return `${indent}- ${head}${tail}`;
}

function quoteUrl(url: string): string {
  const clipped = url.length > MAX_NAME ? `${url.slice(0, MAX_NAME)}…` : url;
  return /^[\w/.:?&=#%~+@,;!$'()*-]+$/.test(clipped) ? clipped : JSON.stringify(clipped);
}

/** Text stays bare, as in Playwright, unless it could read as markup of the page tree itself. */
function plainOrQuoted(text: string): string {
  const clipped = text.length > MAX_NAME ? `${text.slice(0, MAX_NAME)}…` : text;
  const safe =
    /^[^\s"'[\]{}#:\-*&!|>%@`]/.test(clipped) && !/[\n\r"[\]]|: /.test(clipped) && clipped.trim() === clipped;
  return safe ? clipped : JSON.stringify(clipped);
}
