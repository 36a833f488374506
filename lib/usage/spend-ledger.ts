import type { AgentEvent } from '../protocol/agent-event';
import type { BudgetKind } from '../protocol/notify-events';
import type { TokenUsage } from '../protocol/token-usage';
import type { EventStore } from '../session-log/event-store';

export interface StepSpend {
  time: number;
  model?: string;
  usage: TokenUsage;
}

/** What budget checks need of one session's log, folded from its events in order. */
export interface SessionSpend {
  /** The last seq folded in. */
  seq: number;
  steps: StepSpend[];
  /** Turns the user started over budget. */
  overBudgetTurns: Set<string>;
  /** `notify/budget-reached` already recorded, by turn and budget. */
  budgetNotices: Map<string, string>;
}

export function budgetNoticeKey(turnId: string, budget: BudgetKind): string {
  return `${turnId}\u0000${budget}`;
}

/** How many events one read of the log holds when a session's spend is folded from it. */
export const SPEND_PAGE_EVENTS = 2_000;

/**
 * Budget checks run at every safe point of a turn, so each folds only the events appended since the last one: a
 * cache of the log, never a counter of its own. A worker restart starts it empty and it refolds from the log.
 */
export class SpendLedger {
  private readonly sessions = new Map<string, SessionSpend>();

  constructor(private readonly store: Pick<EventStore, 'read' | 'lastSeq'>) {}

  async session(sessionId: string, lastSeq?: number): Promise<SessionSpend> {
    const known = this.sessions.get(sessionId);
    const storedSeq = lastSeq ?? (await this.store.lastSeq(sessionId));
    // A deleted session's id may come back with a new log: fold that one from its start.
    const spend = known && known.seq <= storedSeq ? known : emptySpend();
    // Folded a page at a time: a long log after a restart is never held whole.
    while (spend.seq < storedSeq) {
      const page = await this.store.read(sessionId, spend.seq, SPEND_PAGE_EVENTS);
      if (page.length === 0) break;
      for (const event of page) fold(spend, event);
    }
    this.sessions.set(sessionId, spend);
    return spend;
  }
}

function emptySpend(): SessionSpend {
  return { seq: 0, steps: [], overBudgetTurns: new Set(), budgetNotices: new Map() };
}

function fold(spend: SessionSpend, event: AgentEvent): void {
  if (event.seq <= spend.seq) return;
  spend.seq = event.seq;
  if (event.type === 'step/completed' && event.data.usage)
    spend.steps.push({ time: event.time, model: event.data.model, usage: event.data.usage });
  else if (event.type === 'turn/started' && event.data.overBudget) spend.overBudgetTurns.add(event.turnId);
  else if (event.type === 'notify/budget-reached' && event.turnId)
    spend.budgetNotices.set(budgetNoticeKey(event.turnId, event.data.budget), event.notificationId);
}
