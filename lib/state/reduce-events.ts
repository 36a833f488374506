import type { AgentEvent } from '../protocol/agent-event';
import { initialClientState, type ClientState } from './client-state';
import { applyEvent } from './apply-event';
import { WorkingCopy } from './working-copy';

/**
 * Applies a batch of delivered events. Durable events are applied strictly in seq order:
 * duplicates are ignored, and events past a gap wait in `pending` until the gap is filled.
 * Transient events apply only when nothing is waiting, and are deduplicated by their index.
 */
export function reduceEvents(state: ClientState, events: readonly AgentEvent[]): ClientState {
  const copy = new WorkingCopy(state);
  let pending = state.pending;
  for (const event of events) {
    if (event.sessionId !== state.sessionId) continue;
    if (!event.durable) {
      if (pending.length === 0 && event.seq <= copy.state.lastSeq) applyEvent(copy, event);
      continue;
    }
    if (event.seq <= copy.state.lastSeq || pending.some((waiting) => waiting.seq === event.seq)) continue;
    if (event.seq === copy.state.lastSeq + 1) {
      applyEvent(copy, event);
      copy.state.lastSeq = event.seq;
      pending = drainPending(copy, pending);
    } else {
      pending = [...pending, event].sort((left, right) => left.seq - right.seq);
    }
  }
  copy.state.pending = pending;
  copy.state.gap = pending.length ? { expected: copy.state.lastSeq + 1, received: pending[0].seq } : null;
  return copy.state;
}

function drainPending(copy: WorkingCopy, pending: AgentEvent[]): AgentEvent[] {
  let index = 0;
  while (index < pending.length && pending[index].seq === copy.state.lastSeq + 1) {
    applyEvent(copy, pending[index]);
    copy.state.lastSeq = pending[index].seq;
    index += 1;
  }
  return index === 0 ? pending : pending.slice(index);
}

/** The state a full log produces; equal to snapshot-then-live and to any redelivery. */
export function replayLog(sessionId: string, events: readonly AgentEvent[], generation = 0): ClientState {
  return reduceEvents(initialClientState(sessionId, generation), events);
}
