import type { AgentEvent } from '../protocol/agent-event';
import type { SessionProjection } from './session-projection';

interface OpenItem {
  kind: 'assistant' | 'reasoning';
  turnId: string;
  stepId: string;
  attemptId: string;
  itemId: string;
  text: string;
  deltas: AgentEvent[];
}

const MAX_KEPT_DELTAS = 20_000;

/**
 * What the runtime remembers in memory about unfinished turns of one session:
 * the transient deltas of open items (so a late subscriber sees the partial text)
 * and which turns are still open.
 */
export class OpenWork {
  private readonly items = new Map<string, OpenItem>();
  readonly openTurns: Set<string>;

  /** `openTurns`: the turns a snapshot found open (a log has no deltas, so nothing else is open after a load). */
  constructor(openTurns: Iterable<string> = []) {
    this.openTurns = new Set(openTurns);
  }

  observe(event: AgentEvent): void {
    switch (event.type) {
      case 'turn/started':
      case 'turn/resumed':
        this.openTurns.add(event.turnId);
        return;
      // A paused turn is driven by nobody on purpose: it is not orphaned, and waits for the person to resume it.
      case 'turn/paused':
        this.openTurns.delete(event.turnId);
        return;
      case 'turn/completed':
      case 'turn/aborted':
      case 'turn/interrupted':
        this.openTurns.delete(event.turnId);
        for (const [key, item] of this.items) if (item.turnId === event.turnId) this.items.delete(key);
        return;
      case 'assistant/delta':
      case 'reasoning/delta':
        this.addDelta(event);
        return;
      case 'assistant/completed':
      case 'assistant/interrupted':
      case 'reasoning/completed':
      case 'reasoning/interrupted':
        this.items.delete(`${event.itemId}/${event.attemptId}`);
        return;
      default:
    }
  }

  private addDelta(event: Extract<AgentEvent, { type: 'assistant/delta' | 'reasoning/delta' }>): void {
    const key = `${event.itemId}/${event.attemptId}`;
    const kind = event.type === 'assistant/delta' ? 'assistant' : 'reasoning';
    const item = this.items.get(key) ?? {
      kind,
      turnId: event.turnId,
      stepId: event.stepId,
      attemptId: event.attemptId,
      itemId: event.itemId,
      text: '',
      deltas: [],
    };
    if (event.data.index !== item.deltas.length) return;
    item.text += event.data.text;
    if (item.deltas.length < MAX_KEPT_DELTAS) item.deltas.push(event);
    this.items.set(key, item);
  }

  /** Transient events a new subscriber needs after the durable log to see what is on screen now. */
  transientTail(): AgentEvent[] {
    return [...this.items.values()].flatMap((item) => item.deltas);
  }

  itemsOfTurn(turnId: string): OpenItem[] {
    return [...this.items.values()].filter((item) => item.turnId === turnId);
  }
}

/** Open work as a projection: a snapshot's book says which turns were open at its seq (a log has no deltas). */
export const OPEN_WORK: SessionProjection<OpenWork> = {
  start: (head) => {
    if (!head) return new OpenWork();
    const ended = new Set([...head.book.endedTurns.map(([turnId]) => turnId), ...(head.book.pausedTurns ?? [])]);
    return new OpenWork(head.book.startedTurns.filter((turnId) => !ended.has(turnId)));
  },
  project: (work, event) => work.observe(event),
};
