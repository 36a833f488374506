import type { TurnEntry, TurnState } from './client-state';
import type { WorkingCopy } from './working-copy';

export function updateTurn(copy: WorkingCopy, turnId: string, change: (turn: TurnState) => Partial<TurnState>): void {
  const turn = copy.state.turns[turnId];
  if (!turn) return;
  copy.table('turns')[turnId] = { ...turn, ...change(turn) };
}

export function addEntry(copy: WorkingCopy, turnId: string, entry: TurnEntry): void {
  updateTurn(copy, turnId, (turn) => ({ entries: [...turn.entries, entry] }));
}

export function isTurnOpen(copy: WorkingCopy, turnId: string): boolean {
  return copy.state.turns[turnId]?.status === 'running';
}

function sameEntry(left: TurnEntry, right: TurnEntry): boolean {
  if (left.kind === 'item' && right.kind === 'item') return left.key === right.key;
  if (left.kind === 'tool' && right.kind === 'tool') return left.toolCallId === right.toolCallId;
  if (left.kind === 'command' && right.kind === 'command') return left.commandId === right.commandId;
  return left.kind === 'error' && right.kind === 'error' && left.index === right.index;
}

/** An entry only transient events have shown so far; the log does not know it yet. */
function isProvisional(copy: WorkingCopy, entry: TurnEntry): boolean {
  if (entry.kind === 'item') return entry.key in copy.state.streaming;
  if (entry.kind === 'tool') return copy.state.toolCalls[entry.toolCallId]?.status === 'streaming';
  return false;
}

/**
 * Places an entry at its first durable event: after every entry the log already knows and before the ones
 * only deltas have shown. Entries then end up in the log's order however many deltas this client missed,
 * so live state equals a replay of the log.
 */
export function placeDurableEntry(copy: WorkingCopy, turnId: string, entry: TurnEntry): void {
  updateTurn(copy, turnId, (turn) => {
    const others = turn.entries.filter((candidate) => !sameEntry(candidate, entry));
    const boundary = others.findIndex((candidate) => isProvisional(copy, candidate));
    const at = boundary === -1 ? others.length : boundary;
    return { entries: [...others.slice(0, at), entry, ...others.slice(at)] };
  });
}
