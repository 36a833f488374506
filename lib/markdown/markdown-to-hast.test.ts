import type { Element, Root, RootContent } from 'hast';
import { describe, expect, it } from 'vitest';
import { markdownToHast } from './markdown-to-hast';

function elements(node: Root | RootContent): Element[] {
  if (node.type !== 'element' && node.type !== 'root') return [];
  const own = node.type === 'element' ? [node] : [];
  return [...own, ...node.children.flatMap(elements)];
}

function text(node: Root | RootContent): string {
  if (node.type === 'text') return node.value;
  if (node.type !== 'element' && node.type !== 'root') return '';
  return node.children.map(text).join('');
}

describe('markdownToHast', () => {
  it('turns raw HTML into text and renders no element outside the allow list', () => {
    const tree = markdownToHast('<script>alert(1)</script>\n\nHi <img src=x onerror=alert(1)> <iframe src="https://evil.example"></iframe>', false);
    const tags = elements(tree).map((element) => element.tagName);
    expect(tags).not.toContain('script');
    expect(tags).not.toContain('iframe');
    expect(tags).not.toContain('img');
    expect(text(tree)).toContain('<script>alert(1)</script>');
    expect(text(tree)).toContain('<img src=x onerror=alert(1)>');
  });

  it('empties link and image URLs whose scheme is not on the allow list', () => {
    const tree = markdownToHast('[run](javascript:alert(1)) [mail](mailto:a@example.org) [web](https://example.org) ![x](data:image/png;base64,AAAA)', false);
    const hrefs = elements(tree).filter((element) => element.tagName === 'a').map((element) => element.properties.href);
    expect(hrefs).toEqual(['', 'mailto:a@example.org', 'https://example.org/']);
    expect(elements(tree).find((element) => element.tagName === 'img')?.properties.src).toBe('');
  });

  it('renders GFM tables and highlights fenced code only when asked', () => {
    const source = '| a | b |\n|---|---|\n| 1 | 2 |\n\n```ts\nconst x = 1;\n```';
    expect(elements(markdownToHast(source, false)).map((element) => element.tagName)).toContain('table');
    const highlighted = elements(markdownToHast(source, true)).find((element) => element.tagName === 'code');
    expect(highlighted?.properties.className).toEqual(['hljs', 'language-ts']);
    const plain = elements(markdownToHast(source, false)).find((element) => element.tagName === 'code');
    expect(plain?.properties.className).toEqual(['language-ts']);
  });

  it('gives the same tree for the same source however often it is called (the processor is shared)', () => {
    expect(markdownToHast('**a** [b](https://example.org)', true)).toEqual(markdownToHast('**a** [b](https://example.org)', true));
  });
});
