import { initialClientState, type ClientState } from './client-state';

/**
 * The state the panel shows for the conversation it has open: the synced state only while it is that
 * conversation's. Between choosing another conversation and its first state, the last one is still held; showing
 * it then would send a message or attach a file to the conversation the user just left.
 */
export function stateOfSession(
  sessionId: string | undefined,
  synced: ClientState | undefined,
): ClientState | undefined {
  if (!sessionId) return undefined;
  return synced?.sessionId === sessionId ? synced : initialClientState(sessionId);
}
