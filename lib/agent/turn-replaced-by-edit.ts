import type { ClientState } from '../state/client-state';

/** An edited message is a new turn; if it replaces the failed last turn, that one is left out of the model's history like a retry. */
export function turnReplacedByEdit(
  state: Pick<ClientState, 'turnOrder' | 'turns'>,
  editedTurnId: string,
): string | undefined {
  const status = state.turns[editedTurnId]?.status;
  const failed = status === 'interrupted' || status === 'aborted';
  return failed && state.turnOrder.at(-1) === editedTurnId ? editedTurnId : undefined;
}
