import type { AgentEvent } from '../protocol/agent-event';
import { SNAPSHOT_FORMAT, sessionSnapshotSchema, type SessionSnapshot } from '../protocol/session-snapshot';
import { initialClientState, type ClientState } from './client-state';
import { reduceEvents } from './reduce-events';

type Exactly<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/**
 * The snapshot schema strips keys it does not know, so a state table missing from it would vanish from every
 * snapshot and snapshot + tail would no longer equal a replay: this fails to compile instead, optional keys too.
 */
const snapshotCoversState: Exactly<
  SessionSnapshot['state'],
  Omit<ClientState, 'generation' | 'pending' | 'gap'>
> = true;
void snapshotCoversState;

/** The durable part of a state whose log has no gap, as a snapshot; undefined while events wait past a gap. */
export function takeSnapshot(state: ClientState): SessionSnapshot | undefined {
  if (state.pending.length > 0) return undefined;
  const { generation: _generation, pending: _pending, gap: _gap, ...rest } = state;
  return { format: SNAPSHOT_FORMAT, sessionId: state.sessionId, snapshotSeq: state.lastSeq, state: rest };
}

/** A snapshot's state, ready to take the events after it. */
export function stateFromSnapshot(snapshot: SessionSnapshot, generation = 0): ClientState {
  return { ...structuredClone(snapshot.state), generation, pending: [], gap: null };
}

/** A stored snapshot this build may use: its own format, this session, checked, and not ahead of the log. */
export function usableSnapshot(stored: unknown, sessionId: string, lastSeq: number): SessionSnapshot | undefined {
  const parsed = sessionSnapshotSchema.safeParse(stored);
  if (!parsed.success) return undefined;
  const snapshot = parsed.data;
  const consistent = snapshot.state.sessionId === sessionId && snapshot.state.lastSeq === snapshot.snapshotSeq;
  return snapshot.sessionId === sessionId && consistent && snapshot.snapshotSeq <= lastSeq ? snapshot : undefined;
}

/** The state of a snapshot (or of nothing) with the durable events after it. */
export function stateAfter(sessionId: string, snapshot: SessionSnapshot | undefined, tail: readonly AgentEvent[]) {
  return reduceEvents(snapshot ? stateFromSnapshot(snapshot) : initialClientState(sessionId), tail);
}
