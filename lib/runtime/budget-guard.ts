import type { AgentEvent, AgentEventDraft } from '../protocol/agent-event';
import type { UsageSettings } from '../settings/usage-settings';
import {
  describeBudgetReached,
  reachedBudget,
  spendOfEvents,
  startOfDay,
  type BudgetReached,
  type Spend,
} from '../usage/budget-state';
import type { EventStore } from './event-store';

export interface BudgetGuardDependencies {
  store: Pick<EventStore, 'read' | 'listSessions'>;
  settings(): Promise<UsageSettings>;
  now(): number;
  newId(): string;
  recordNotifications(sessionId: string, drafts: AgentEventDraft[]): Promise<void>;
}

export type BudgetCheck =
  | { reached: false; conversation: Spend; day: Spend }
  | ({ reached: true; conversation: Spend; day: Spend; message: string; notificationId?: string } & BudgetReached);

/**
 * Budgets are derived from the log on every check (never a counter in memory), so they hold across restarts:
 * the conversation's steps, and the steps since local midnight in every conversation touched today.
 */
export class BudgetGuard {
  constructor(private readonly dependencies: BudgetGuardDependencies) {}

  /**
   * Without a turn: whether a new turn may start. With one, at a safe point of that turn: a reached budget is
   * recorded once per turn as `notify/budget-reached`, unless the user started the turn over budget.
   */
  async check(sessionId: string, turnId?: string): Promise<BudgetCheck> {
    const settings = await this.dependencies.settings();
    const { budgets, prices } = settings;
    const conversationEvents = await this.dependencies.store.read(sessionId, 0);
    const conversation = spendOfEvents(conversationEvents, prices);
    const day = budgets.day ? await this.daySpend(settings) : conversation;
    const reached = reachedBudget(budgets, { conversation, day });
    if (!reached) return { reached: false, conversation, day };
    const message = describeBudgetReached(reached);
    if (!turnId) return { reached: true, conversation, day, message, ...reached };
    if (startedOverBudget(conversationEvents, turnId)) return { reached: false, conversation, day };
    const notificationId = await this.notifyOnce(sessionId, turnId, conversationEvents, reached, message);
    return { reached: true, conversation, day, message, notificationId, ...reached };
  }

  private async daySpend(settings: UsageSettings): Promise<Spend> {
    const since = startOfDay(this.dependencies.now());
    const sessions = (await this.dependencies.store.listSessions()).filter((session) => session.updatedAt >= since);
    const events: AgentEvent[] = [];
    for (const session of sessions) events.push(...(await this.dependencies.store.read(session.sessionId, 0)));
    return spendOfEvents(events, settings.prices, (event) => event.time >= since);
  }

  private async notifyOnce(
    sessionId: string,
    turnId: string,
    events: AgentEvent[],
    reached: BudgetReached,
    message: string,
  ): Promise<string> {
    const known = events.find(
      (event) =>
        event.type === 'notify/budget-reached' && event.turnId === turnId && event.data.budget === reached.budget,
    );
    if (known && 'notificationId' in known) return known.notificationId;
    const notificationId = this.dependencies.newId();
    await this.dependencies.recordNotifications(sessionId, [
      {
        type: 'notify/budget-reached',
        sessionId,
        notificationId,
        turnId,
        time: this.dependencies.now(),
        data: { ...reached, message },
      },
    ]);
    return notificationId;
  }
}

function startedOverBudget(events: AgentEvent[], turnId: string): boolean {
  return events.some((event) => event.type === 'turn/started' && event.turnId === turnId && event.data.overBudget);
}

/** The runtime refuses a new turn while a budget is reached, unless the user confirmed going over it once. */
export async function refuseTurnOverBudget(
  budgets: BudgetGuard | undefined,
  sessionId: string,
  drafts: readonly { type: string; data?: unknown }[],
): Promise<void> {
  if (!budgets) return;
  const starts = drafts.filter((draft) => draft.type === 'turn/started');
  if (starts.length === 0) return;
  if (starts.every((draft) => (draft.data as { overBudget?: unknown } | undefined)?.overBudget === true)) return;
  const check = await budgets.check(sessionId);
  if (check.reached) throw new Error(`${check.message} Raise the budget in the options, or send once over it.`);
}
