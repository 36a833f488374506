import type { Element, Root } from 'hast';
import { describe, expect, it } from 'vitest';
import { highlightCode, isHighlightable } from './highlight-code';
import { nodeText } from './node-text';

function codeBlock(className: string[], text: string): Root {
  return {
    type: 'root',
    children: [
      {
        type: 'element',
        tagName: 'pre',
        properties: {},
        children: [
          { type: 'element', tagName: 'code', properties: { className }, children: [{ type: 'text', value: text }] },
        ],
      },
    ],
  };
}

const codeOf = (tree: Root) => (tree.children[0] as Element).children[0] as Element;

describe('highlightCode', () => {
  it('colours code with a known language and keeps its text', () => {
    const tree = codeBlock(['language-ts'], 'const speed = 12;\n');
    highlightCode()(tree);
    const code = codeOf(tree);
    expect(code.properties.className).toEqual(['hljs', 'language-ts']);
    expect(
      code.children.some(
        (child) => child.type === 'element' && String((child.properties.className as string[])[0]).startsWith('hljs-'),
      ),
    ).toBe(true);
    expect(nodeText(code)).toBe('const speed = 12;\n');
  });

  it('leaves unknown and unlabelled code alone', () => {
    for (const className of [['language-klingon'], []]) {
      const tree = codeBlock(className, '<b>x</b>');
      highlightCode()(tree);
      expect(codeOf(tree).children).toEqual([{ type: 'text', value: '<b>x</b>' }]);
    }
  });

  it('knows the common languages', () => {
    expect(['js', 'ts', 'python', 'json', 'bash', 'css'].every(isHighlightable)).toBe(true);
  });
});
