import { describe, expect, it } from 'vitest';
import { emptyBranchTree, addStartedTurn } from '../state/branch-tree';
import { foundTurnBranchSwitch } from './found-turn-branch';

/** first → (edit) second-a → after-a, and the edit second-b in view: second-a's branch is not shown. */
function editedConversation() {
  const branches = emptyBranchTree();
  addStartedTurn(branches, 'first', null, undefined);
  addStartedTurn(branches, 'second-a', 'first', undefined);
  addStartedTurn(branches, 'after-a', 'second-a', undefined);
  addStartedTurn(branches, 'second-b', 'first', undefined);
  return { sessionId: 's', branches };
}

describe('foundTurnBranchSwitch', () => {
  it('switches to the branch through a found turn that is not in view, down to its newest turn', () => {
    expect(foundTurnBranchSwitch(editedConversation(), 'second-a', 7)).toEqual({
      type: 'branch/switched',
      sessionId: 's',
      turnId: 'after-a',
      time: 7,
      data: {},
    });
    expect(foundTurnBranchSwitch(editedConversation(), 'after-a', 7)).toMatchObject({ turnId: 'after-a' });
  });

  it('leaves the branch alone when the found turn is in view or unknown', () => {
    expect(foundTurnBranchSwitch(editedConversation(), 'second-b', 7)).toBeUndefined();
    expect(foundTurnBranchSwitch(editedConversation(), 'first', 7)).toBeUndefined();
    expect(foundTurnBranchSwitch(editedConversation(), 'elsewhere', 7)).toBeUndefined();
  });
});
