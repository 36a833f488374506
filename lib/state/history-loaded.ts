import type { ClientState } from './client-state';

/**
 * Whether the state holds the conversation's history: a state is only stamped with a connection generation by
 * the snapshot of that connection, so generation 0 is the state before the first snapshot arrived.
 */
export function isHistoryLoaded(state: Pick<ClientState, 'generation'>): boolean {
  return state.generation > 0;
}
