import { describe, expect, it } from 'vitest';
import { estimateTokens } from './estimate-tokens';
import { MAX_PAGE_TREE_TOKENS, renderPageTree } from './render-page-tree';
import type { PageTreeNode } from './page-tree-node';

function button(index: number, inViewport: boolean): PageTreeNode {
  return { role: 'button', name: `Button number ${index}`, ref: `e${index}`, inViewport, children: [] };
}

function page(count: number, visibleFrom: number, visibleTo: number): PageTreeNode[] {
  const buttons = Array.from({ length: count }, (_, index) =>
    button(index + 1, index >= visibleFrom && index < visibleTo),
  );
  return [{ role: 'main', name: '', ref: 'e0', inViewport: true, children: buttons }];
}

describe('renderPageTree', () => {
  it('prints everything when it fits, with no truncation', () => {
    const rendered = renderPageTree(page(3, 0, 3));
    expect(rendered.snapshot).toBe(
      [
        '- main [ref=e0]:',
        '  - button "Button number 1" [ref=e1]',
        '  - button "Button number 2" [ref=e2]',
        '  - button "Button number 3" [ref=e3]',
      ].join('\n'),
    );
    expect(rendered.truncated).toBeNull();
    expect(rendered.refs).toEqual(['e0', 'e1', 'e2', 'e3']);
    expect(rendered.tokens).toBe(estimateTokens(rendered.snapshot));
  });

  it('fills the budget viewport first and says what it left out', () => {
    const rendered = renderPageTree(page(2000, 1500, 1510), { maxTokens: 500 });
    expect(rendered.tokens).toBeLessThanOrEqual(500);
    for (let index = 1501; index <= 1510; index++) expect(rendered.refs).toContain(`e${index}`);
    expect(rendered.truncated?.reason).toBe('token-budget');
    expect(rendered.truncated?.omittedLines).toBe(2001 - rendered.refs.length);
    expect(rendered.truncated?.omittedOutsideViewport).toBe(rendered.truncated?.omittedLines);
    expect(rendered.truncated?.hint).toMatch(/scope=<ref> or find=<text>/);
  });

  it('keeps lines in document order after choosing viewport lines first', () => {
    const rendered = renderPageTree(page(400, 300, 305), { maxTokens: 200 });
    const numbers = rendered.refs.slice(1).map((ref) => Number(ref.slice(1)));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  });

  it('never goes over 25,000 tokens, whatever it is asked for', () => {
    const rendered = renderPageTree(page(20_000, 0, 20_000), { maxTokens: 1_000_000 });
    expect(rendered.tokens).toBeLessThanOrEqual(MAX_PAGE_TREE_TOKENS);
    expect(rendered.truncated?.omittedRefs).toBeGreaterThan(0);
  });

  it('find keeps matches with their ancestors and subtrees', () => {
    const roots: PageTreeNode[] = [
      {
        role: 'region',
        name: 'Cart',
        ref: 'e1',
        inViewport: false,
        children: [
          { role: 'button', name: 'Checkout', ref: 'e2', inViewport: false, children: [] },
          { role: 'button', name: 'Clear', ref: 'e3', inViewport: false, children: [] },
        ],
      },
      { role: 'link', name: 'Home', url: '/checkout-help', ref: 'e4', inViewport: true, children: [] },
    ];
    expect(renderPageTree(roots, { find: 'checkout' }).refs).toEqual(['e1', 'e2', 'e4']);
    expect(renderPageTree(roots, { find: 'cart' }).refs).toEqual(['e1', 'e2', 'e3']);
    expect(renderPageTree(roots, { find: 'nothing here' }).snapshot).toBe('');
  });

  it('reports a walk that stopped at the node limit', () => {
    expect(renderPageTree(page(2, 0, 2), { nodeLimitReached: true }).truncated?.reason).toBe('node-limit');
  });
});
