import type { ClientState } from '../state/client-state';

/** Text the user added to the turn this panel drove. */
export interface Addition {
  sessionId: string;
  /** Absent when there was no turn to add to (the conversation was being compacted). */
  turnId?: string;
  text: string;
  /** The steer it was submitted as; absent when it never was, the turn having ended already. */
  commandId?: string;
}

/** What became of additions whose turn is over, once this panel has let the turn go. */
export interface SettledAdditions {
  /** Not applied, and their turn completed: they go as the next message, as the user meant them to be read. */
  nextMessage: string[];
  /** Not applied, and their turn was stopped or failed: back into the composer, nothing sent without the user. */
  giveBack: string[];
  /** Their fate is not in the state yet (the turn runs or is paused, the steer is queued or on its way). */
  waiting: Addition[];
}

const ENDED = new Set(['completed', 'aborted', 'interrupted']);
const DONE_WITH = new Set(['applied', 'cancelled']);

/** Whether the state shows the turn over, though its driver may not have let it go yet. */
export function hasTurnEnded(state: ClientState | undefined, turnId: string): boolean {
  return ENDED.has(state?.turns[turnId]?.status ?? '');
}

/**
 * Additions the turn never read are not lost: a turn reads additions only at its safe points, and one that arrives
 * after the last (a press of Enter as the reply ends) is stale when the turn ends. Applied ones, and withdrawn ones
 * (already back in the composer), are done with; additions to another conversation are let go.
 */
export function settleAdditions(state: ClientState, additions: readonly Addition[]): SettledAdditions {
  const settled: SettledAdditions = { nextMessage: [], giveBack: [], waiting: [] };
  for (const addition of additions) {
    if (addition.sessionId !== state.sessionId) continue;
    if (addition.turnId === undefined) {
      settled.nextMessage.push(addition.text);
      continue;
    }
    const commandState = addition.commandId === undefined ? 'stale' : state.commands[addition.commandId]?.state;
    const status = state.turns[addition.turnId]?.status ?? '';
    if (commandState !== undefined && DONE_WITH.has(commandState)) continue;
    if (commandState === 'rejected') settled.giveBack.push(addition.text);
    else if (commandState !== 'stale' || !ENDED.has(status)) settled.waiting.push(addition);
    else if (status === 'completed') settled.nextMessage.push(addition.text);
    else settled.giveBack.push(addition.text);
  }
  return settled;
}
