import type { RewindMode } from '../protocol/rewind-events';
import type { BranchTree, ClientState } from './client-state';

/** The key `children` files a first message under. */
const ROOT = '';

export function emptyBranchTree(): BranchTree {
  return { parents: {}, children: {}, answerOf: {}, leaf: null };
}

/**
 * Adds a turn to a tree the caller owns (a batch's copy), which makes it the leaf in view. An unknown parent is
 * read as the leaf's child. Mutating keeps a long log's replay linear: a copy per turn would be quadratic.
 */
export function addStartedTurn(
  tree: BranchTree,
  turnId: string,
  parentTurnId: string | null | undefined,
  answerOf: string | undefined,
): void {
  if (turnId in tree.parents) return;
  const parent = parentTurnId === null ? null : parentTurnId && parentTurnId in tree.parents ? parentTurnId : tree.leaf;
  const key = parent ?? ROOT;
  tree.parents[turnId] = parent;
  tree.children[key] = [...(tree.children[key] ?? []), turnId];
  if (answerOf && answerOf in tree.parents) tree.answerOf[turnId] = tree.answerOf[answerOf] ?? answerOf;
  tree.leaf = turnId;
  delete tree.rewound;
}

/** A copy of the tree whose tables may be written. */
export function copyBranchTree(tree: BranchTree): BranchTree {
  return {
    parents: { ...tree.parents },
    children: { ...tree.children },
    answerOf: { ...tree.answerOf },
    leaf: tree.leaf,
    ...(tree.rewound ? { rewound: { ...tree.rewound } } : {}),
  };
}

/** A switch to the branch that ends at `turnId`, in a tree the caller owns; an unknown turn changes nothing. */
export function switchLeaf(tree: BranchTree, turnId: string): void {
  if (!(turnId in tree.parents)) return;
  tree.leaf = turnId;
  delete tree.rewound;
}

/**
 * A rewind to just before `turnId`'s message, in a tree the caller owns: the view ends at that turn's parent, so
 * the next message is its sibling. A turn the tree does not know changes nothing.
 */
export function rewindTo(tree: BranchTree, turnId: string, mode: RewindMode): void {
  if (!(turnId in tree.parents)) return;
  tree.rewound = { turnId, fromLeaf: tree.leaf, mode };
  tree.leaf = tree.parents[turnId];
}

/** The tree with one more turn, as a new tree. */
export function withStartedTurn(
  tree: BranchTree,
  turnId: string,
  parentTurnId: string | null | undefined,
  answerOf: string | undefined,
): BranchTree {
  const next = copyBranchTree(tree);
  addStartedTurn(next, turnId, parentTurnId, answerOf);
  return next;
}

/** The turns from the first message to `turnId`, in order; none for null. */
export function pathTo(tree: BranchTree, turnId: string | null): string[] {
  const path: string[] = [];
  for (let at = turnId; at !== null && at in tree.parents; at = tree.parents[at]) path.push(at);
  return path.reverse();
}

/** The turns of the branch in view, in log order (the order of `turnOrder`, which may hold only some turns). */
export function activeTurnOrder(state: Pick<ClientState, 'turnOrder' | 'branches'>): string[] {
  const active = new Set(pathTo(state.branches, state.branches.leaf));
  return state.turnOrder.filter((turnId) => active.has(turnId));
}

export interface Variants {
  /** The alternatives, oldest first: each a turn to switch to. */
  turnIds: string[];
  /** Which of them is in view. */
  index: number;
}

function siblingsOf(tree: BranchTree, turnId: string): string[] {
  return tree.children[tree.parents[turnId] ?? ROOT] ?? [];
}

/** The messages written at this place of the conversation (an edit adds one); a regeneration is no new message. */
export function messageVariants(tree: BranchTree, turnId: string): Variants {
  const original = tree.answerOf[turnId] ?? turnId;
  const turnIds = siblingsOf(tree, turnId).filter((sibling) => !(sibling in tree.answerOf));
  return { turnIds, index: turnIds.indexOf(original) };
}

/** The answers to this turn's message: the turn that asked it first and each regeneration. */
export function answerVariants(tree: BranchTree, turnId: string): Variants {
  const original = tree.answerOf[turnId] ?? turnId;
  const turnIds = siblingsOf(tree, turnId).filter(
    (sibling) => sibling === original || tree.answerOf[sibling] === original,
  );
  return { turnIds, index: turnIds.indexOf(turnId) };
}

/** The leaf a switch to `turnId` shows: from it, the newest turn at each later place of its branch. */
export function leafBelow(tree: BranchTree, turnId: string): string {
  let at = turnId;
  for (let next = tree.children[at]?.at(-1); next !== undefined; next = tree.children[at]?.at(-1)) at = next;
  return at;
}

/** The leaf that switching to another message at this place shows: the newest answer to that message, and on. */
export function leafOfMessage(tree: BranchTree, messageTurnId: string): string {
  const answers = answerVariants(tree, messageTurnId).turnIds;
  return leafBelow(tree, answers.at(-1) ?? messageTurnId);
}
