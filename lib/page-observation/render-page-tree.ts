import type { PageTruncation } from '../protocol/page-wire';
import { estimateTokens } from './estimate-tokens';
import { formatTreeLine } from './format-tree-line';
import type { PageTreeNode } from './page-tree-node';

export const DEFAULT_PAGE_TREE_TOKENS = 6000;
export const MAX_PAGE_TREE_TOKENS = 25_000;

export interface RenderPageTreeOptions {
  maxTokens?: number;
  /** Keep only lines whose name, value or URL contains this (case-insensitive), with their ancestors and subtrees. */
  find?: string;
  /** The walker stopped early: say so even when everything it found fits. */
  nodeLimitReached?: boolean;
}

export interface RenderedPageTree {
  snapshot: string;
  tokens: number;
  truncated: PageTruncation | null;
  /** Refs on the printed lines, in document order. */
  refs: string[];
}

interface Entry {
  node: PageTreeNode;
  depth: number;
  parent: number;
  line: string;
  cost: number;
}

function flatten(roots: PageTreeNode[]): Entry[] {
  const entries: Entry[] = [];
  const visit = (node: PageTreeNode, depth: number, parent: number) => {
    const line = formatTreeLine(node, depth);
    entries.push({ node, depth, parent, line, cost: estimateTokens(line) + 1 });
    const index = entries.length - 1;
    for (const child of node.children) visit(child, depth + 1, index);
  };
  for (const root of roots) visit(root, 0, -1);
  return entries;
}

function matches(node: PageTreeNode, needle: string): boolean {
  return [node.name, node.value ?? '', node.url ?? ''].some((text) => text.toLowerCase().includes(needle));
}

/** Indexes of the entries `find` keeps: each match, its ancestors and its subtree. */
function foundEntries(entries: Entry[], find: string): Set<number> {
  const needle = find.toLowerCase();
  const inMatch = new Set<number>();
  const kept = new Set<number>();
  entries.forEach((entry, index) => {
    if (!matches(entry.node, needle) && !inMatch.has(entry.parent)) return;
    inMatch.add(index);
    for (let at = index; at >= 0 && !kept.has(at); at = entries[at].parent) kept.add(at);
  });
  return kept;
}

/** Viewport first, then the rest in document order, each with its ancestors, while the budget lasts. */
function selectWithinBudget(entries: Entry[], candidates: number[], maxTokens: number): Set<number> {
  const selected = new Set<number>();
  let spent = 0;
  const ordered = [
    ...candidates.filter((index) => entries[index].node.inViewport),
    ...candidates.filter((index) => !entries[index].node.inViewport),
  ];
  for (const index of ordered) {
    const missing: number[] = [];
    for (let at = index; at >= 0 && !selected.has(at); at = entries[at].parent) missing.push(at);
    const cost = missing.reduce((sum, at) => sum + entries[at].cost, 0);
    if (spent + cost > maxTokens) continue;
    spent += cost;
    for (const at of missing) selected.add(at);
  }
  return selected;
}

/** Prints a frame's tree as page tree lines within a token budget; `truncated` says what was left out. */
export function renderPageTree(roots: PageTreeNode[], options: RenderPageTreeOptions = {}): RenderedPageTree {
  const maxTokens = Math.min(options.maxTokens ?? DEFAULT_PAGE_TREE_TOKENS, MAX_PAGE_TREE_TOKENS);
  const entries = flatten(roots);
  const found = options.find === undefined ? undefined : foundEntries(entries, options.find);
  const candidates = entries.map((_, index) => index).filter((index) => found === undefined || found.has(index));
  const selected = selectWithinBudget(entries, candidates, maxTokens);
  const printed = entries.filter((_, index) => selected.has(index));
  const snapshot = printed.map((entry) => entry.line).join('\n');
  const omitted = candidates.filter((index) => !selected.has(index)).map((index) => entries[index]);
  return {
    snapshot,
    tokens: estimateTokens(snapshot),
    truncated: truncation(omitted, options.nodeLimitReached === true),
    refs: printed.flatMap((entry) => (entry.node.ref === undefined ? [] : [entry.node.ref])),
  };
}

function truncation(omitted: Entry[], nodeLimitReached: boolean): PageTruncation | null {
  if (omitted.length === 0 && !nodeLimitReached) return null;
  const omittedRefs = omitted.filter((entry) => entry.node.ref !== undefined).length;
  const omittedOutsideViewport = omitted.filter((entry) => !entry.node.inViewport).length;
  const what = nodeLimitReached ? 'The page has more nodes than one snapshot walks' : `${omitted.length} lines`;
  return {
    omittedLines: omitted.length,
    omittedRefs,
    omittedOutsideViewport,
    reason: nodeLimitReached ? 'node-limit' : 'token-budget',
    hint: `${what} (${omittedRefs} with refs, ${omittedOutsideViewport} outside the viewport) left out: observe with scope=<ref> or find=<text>, or scroll.`,
  };
}
