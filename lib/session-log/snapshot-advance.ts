import type { AgentEvent } from '../protocol/agent-event';
import { SNAPSHOT_FORMAT, type TurnSlice } from '../protocol/session-snapshot';
import {
  type RuntimeBook,
  storedSnapshotHeadSchema,
  storedTurnRowSchema,
  type StoredSnapshotHead,
  type StoredTurnRow,
} from '../protocol/stored-snapshot';
import { initialClientState, type ClientState } from '../state/client-state';
import { reduceEvents } from '../state/reduce-events';
import { headState, sliceTurns, withOlderTurns } from '../state/state-snapshot';
import { bookAfter, type SnapshotBook } from './session-projection';

export interface SnapshotParts {
  head: StoredSnapshotHead;
  /** The turns the head's state holds, by position: the rows to write beside it. */
  rows: StoredTurnRow[];
}

/** The turns events refer to without starting them: their rows are what the events are reduced onto. */
export function touchedTurnIds(events: readonly AgentEvent[]): string[] {
  const started = new Set<string>();
  const touched = new Set<string>();
  for (const event of events) {
    const turnId = 'turnId' in event ? event.turnId : undefined;
    if (!turnId) continue;
    if (event.type === 'turn/started') started.add(turnId);
    else if (!started.has(turnId)) touched.add(turnId);
  }
  return [...touched];
}

/** A head and some of its turn rows as a client state: the rows' turns in position order after the head. */
export function stateOfRows(head: StoredSnapshotHead, rows: readonly StoredTurnRow[], generation = 0): ClientState {
  const sorted = [...rows].sort((left, right) => left.position - right.position);
  const base: ClientState = { ...structuredClone(head.state), generation, pending: [], gap: null };
  const olderTurns = sorted[0]?.position ?? head.turnCount;
  return withOlderTurns(
    base,
    sorted.map((row) => row.slice),
    olderTurns,
  );
}

/**
 * The snapshot after `tail`, from a stored one and the rows of every turn the tail touches (or from nothing,
 * with the whole log as the tail), its book made of `book`'s parts; undefined when the tail has a gap. Only the
 * rows it changed are returned.
 */
export function advanceSnapshot(
  sessionId: string,
  base: SnapshotParts | undefined,
  tail: readonly AgentEvent[],
  book: SnapshotBook,
): SnapshotParts | undefined {
  const state = reduceEvents(base ? stateOfRows(base.head, base.rows) : initialClientState(sessionId), tail);
  if (state.pending.length > 0) return undefined;
  const positions = new Map(base?.rows.map((row) => [row.turnId, row.position]));
  let turnCount = base?.head.turnCount ?? 0;
  const rows = sliceTurns(state, state.turnOrder).map((slice) =>
    turnRow(sessionId, slice, positions.get(slice.turn.turnId) ?? turnCount++),
  );
  return { head: snapshotHead(sessionId, state, bookAfter(book, base?.head, tail), turnCount), rows };
}

function turnRow(sessionId: string, slice: TurnSlice, position: number): StoredTurnRow {
  return { format: SNAPSHOT_FORMAT as StoredTurnRow['format'], sessionId, position, turnId: slice.turn.turnId, slice };
}

/** The head of a snapshot of `state`, which holds every turn of the session unless `turnCount` says how many there are. */
function snapshotHead(
  sessionId: string,
  state: ClientState,
  book: RuntimeBook,
  turnCount = state.turnOrder.length,
): StoredSnapshotHead {
  const { generation: _generation, pending: _pending, gap: _gap, ...rest } = headState(state);
  return {
    format: SNAPSHOT_FORMAT,
    sessionId,
    snapshotSeq: state.lastSeq,
    turnCount,
    state: { ...rest, olderTurns: 0 },
    book,
  };
}

/** A stored head this build may use: its own format, this session, checked, and not ahead of the log. */
export function usableHead(stored: unknown, sessionId: string, lastSeq: number): StoredSnapshotHead | undefined {
  const parsed = storedSnapshotHeadSchema.safeParse(stored);
  if (!parsed.success) return undefined;
  const head = parsed.data;
  const consistent = head.state.sessionId === sessionId && head.state.lastSeq === head.snapshotSeq;
  return head.sessionId === sessionId && consistent && head.snapshotSeq <= lastSeq ? head : undefined;
}

/** Stored turn rows, checked; undefined when one of them is not usable (the snapshot is then rebuilt). */
export function usableRows(stored: readonly unknown[], sessionId: string): StoredTurnRow[] | undefined {
  const rows: StoredTurnRow[] = [];
  for (const candidate of stored) {
    const parsed = storedTurnRowSchema.safeParse(candidate);
    if (!parsed.success || parsed.data.sessionId !== sessionId) return undefined;
    rows.push(parsed.data);
  }
  return rows;
}
