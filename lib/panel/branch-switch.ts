import type { AgentEventDraft } from '../protocol/agent-event';
import { leafBelow, leafOfMessage } from '../state/branch-tree';
import type { ClientState } from '../state/client-state';

/** Where a switcher is: on a user message (its edits) or on an answer (its regenerations). */
export type BranchPlace = 'message' | 'answer';

/** The event that shows the branch through `turnId`; undefined when that branch is already in view. */
export function branchSwitchEvent(
  state: Pick<ClientState, 'sessionId' | 'branches'>,
  turnId: string,
  place: BranchPlace,
  time: number,
): AgentEventDraft | undefined {
  const { branches } = state;
  if (!(turnId in branches.parents)) return undefined;
  const leaf = place === 'message' ? leafOfMessage(branches, turnId) : leafBelow(branches, turnId);
  if (leaf === branches.leaf) return undefined;
  return { type: 'branch/switched', sessionId: state.sessionId, turnId: leaf, time, data: {} };
}
