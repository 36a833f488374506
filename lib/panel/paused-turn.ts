import type { ClientState } from '../state/client-state';

/** The conversation's paused turn, if its last turn is paused: only that one can be resumed. */
export function pausedTurnOf(state: ClientState | undefined): string | undefined {
  const turnId = state?.turnOrder.at(-1);
  return turnId && state?.turns[turnId]?.status === 'paused' ? turnId : undefined;
}

/** Whether a pause the user asked for waits for the turn's next safe point. */
export function isPausePending(state: ClientState, turnId: string | undefined): boolean {
  if (!turnId) return false;
  return Object.values(state.commands).some(
    (command) => command.turnId === turnId && command.kind === 'pause' && command.state === 'queued',
  );
}
