import { describe, expect, it } from 'vitest';
import type { TurnState } from '../state/client-state';
import { turnReplacedByEdit } from './turn-replaced-by-edit';

function turn(turnId: string, status: TurnState['status']): TurnState {
  return { turnId, userItemId: `${turnId}-user`, userText: turnId, status, startedAt: 0, entries: [], errors: [] };
}

function state(...turns: TurnState[]) {
  return {
    turnOrder: turns.map((each) => each.turnId),
    turns: Object.fromEntries(turns.map((each) => [each.turnId, each])),
  };
}

describe('turnReplacedByEdit', () => {
  it('replaces the last turn when it was interrupted or stopped', () => {
    expect(turnReplacedByEdit(state(turn('a', 'completed'), turn('b', 'interrupted')), 'b')).toBe('b');
    expect(turnReplacedByEdit(state(turn('a', 'completed'), turn('b', 'aborted')), 'b')).toBe('b');
  });

  it('replaces nothing when the edited turn completed or still runs', () => {
    expect(turnReplacedByEdit(state(turn('a', 'completed')), 'a')).toBeUndefined();
    expect(turnReplacedByEdit(state(turn('a', 'running')), 'a')).toBeUndefined();
  });

  it('replaces nothing when a later turn followed the failed one', () => {
    expect(turnReplacedByEdit(state(turn('a', 'interrupted'), turn('b', 'completed')), 'a')).toBeUndefined();
  });

  it('replaces nothing for a turn it does not know', () => {
    expect(turnReplacedByEdit(state(turn('a', 'interrupted')), 'gone')).toBeUndefined();
  });
});
