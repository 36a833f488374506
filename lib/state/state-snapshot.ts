import type { AgentEvent } from '../protocol/agent-event';
import {
  SNAPSHOT_FORMAT,
  sessionSnapshotSchema,
  type SessionSnapshot,
  type TurnSlice,
} from '../protocol/session-snapshot';
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

type TurnTables = 'items' | 'toolCalls' | 'requests' | 'commands';
const TURN_TABLES: readonly TurnTables[] = ['items', 'toolCalls', 'requests', 'commands'];
type SliceTables = Pick<TurnSlice, TurnTables>;

/** Each turn's records (items, tool calls, requests, commands by their turnId), in one pass over the tables. */
export function sliceTurns(state: ClientState, turnIds: readonly string[]): TurnSlice[] {
  const wanted = new Map<string, SliceTables>(
    turnIds.map((turnId) => [turnId, { items: [], toolCalls: [], requests: [], commands: [] }]),
  );
  for (const table of TURN_TABLES)
    for (const record of Object.values(state[table])) {
      const slice = wanted.get(record.turnId);
      if (slice) (slice[table] as (typeof record)[]).push(record);
    }
  return turnIds.flatMap((turnId) => {
    const turn = state.turns[turnId];
    return turn ? [{ turn, ...wanted.get(turnId)! }] : [];
  });
}

/** The state without its turns and their records: what a stored snapshot keeps beside its turn rows. */
export function headState(state: ClientState): ClientState {
  const withoutTurns = <T extends { turnId: string }>(table: Record<string, T>) =>
    Object.fromEntries(Object.entries(table).filter(([, record]) => !(record.turnId in state.turns)));
  return {
    ...state,
    turnOrder: [],
    turns: {},
    items: withoutTurns(state.items),
    toolCalls: withoutTurns(state.toolCalls),
    requests: withoutTurns(state.requests),
    commands: withoutTurns(state.commands),
  };
}

/**
 * Older turns put before the loaded ones. A page is never older than the state it joins (the runtime reduces it
 * up to its last seq, and sends it in order with the live events), so its records replace any the state holds.
 */
export function withOlderTurns(state: ClientState, slices: readonly TurnSlice[], olderTurns: number): ClientState {
  const known = new Set(state.turnOrder);
  const fresh = slices.filter((slice) => !known.has(slice.turn.turnId));
  const next: ClientState = {
    ...state,
    turnOrder: [...fresh.map((slice) => slice.turn.turnId), ...state.turnOrder],
    turns: { ...state.turns },
    items: { ...state.items },
    toolCalls: { ...state.toolCalls },
    requests: { ...state.requests },
    commands: { ...state.commands },
    olderTurns,
  };
  for (const slice of fresh) {
    next.turns[slice.turn.turnId] = slice.turn;
    for (const item of slice.items) next.items[item.key] = item;
    for (const call of slice.toolCalls) next.toolCalls[call.toolCallId] = call;
    for (const request of slice.requests) next.requests[request.requestId] = request;
    for (const command of slice.commands) next.commands[command.commandId] = command;
  }
  return next;
}
