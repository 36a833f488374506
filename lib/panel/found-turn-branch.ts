import type { AgentEventDraft } from '../protocol/agent-event';
import { leafBelow, pathTo } from '../state/branch-tree';
import type { ClientState } from '../state/client-state';

/**
 * The event that brings a found turn into view when it is on a branch not shown (a search hit on an earlier
 * version of a message): the branch through it, down to its newest turn. Undefined when the turn is in view or
 * unknown.
 */
export function foundTurnBranchSwitch(
  state: Pick<ClientState, 'sessionId' | 'branches'>,
  turnId: string,
  time: number,
): AgentEventDraft | undefined {
  const { branches } = state;
  if (!(turnId in branches.parents) || pathTo(branches, branches.leaf).includes(turnId)) return undefined;
  return { type: 'branch/switched', sessionId: state.sessionId, turnId: leafBelow(branches, turnId), time, data: {} };
}
