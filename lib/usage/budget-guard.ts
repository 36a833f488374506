import type { AgentEventDraft } from '../protocol/agent-event';
import type { UsageSettings } from './usage-settings';
import {
  describeBudgetReached,
  reachedBudget,
  spendOfSteps,
  startOfDay,
  type BudgetReached,
  type Spend,
} from './budget-state';
import type { EventStore } from '../session-log/event-store';
import { budgetNoticeKey, SpendLedger, type StepSpend } from './spend-ledger';

export interface BudgetGuardDependencies {
  store: Pick<EventStore, 'read' | 'lastSeq' | 'listSessions'>;
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
 * the conversation's steps, and the steps since local midnight in every conversation touched today. The ledger
 * folds only what was appended since the previous check.
 */
export class BudgetGuard {
  private readonly ledger: SpendLedger;

  constructor(private readonly dependencies: BudgetGuardDependencies) {
    this.ledger = new SpendLedger(dependencies.store);
  }

  /**
   * Without a turn: whether a new turn may start. With one, at a safe point of that turn: a reached budget is
   * recorded once per turn as `notify/budget-reached`, unless the user started the turn over budget.
   */
  async check(sessionId: string, turnId?: string): Promise<BudgetCheck> {
    const settings = await this.dependencies.settings();
    const { budgets, prices } = settings;
    const session = await this.ledger.session(sessionId);
    const conversation = spendOfSteps(session.steps, prices);
    const day = budgets.day ? await this.daySpend(settings) : conversation;
    const reached = reachedBudget(budgets, { conversation, day });
    if (!reached) return { reached: false, conversation, day };
    const message = describeBudgetReached(reached);
    if (!turnId) return { reached: true, conversation, day, message, ...reached };
    if (session.overBudgetTurns.has(turnId)) return { reached: false, conversation, day };
    const notificationId =
      session.budgetNotices.get(budgetNoticeKey(turnId, reached.budget)) ??
      (await this.notify(sessionId, turnId, reached, message));
    return { reached: true, conversation, day, message, notificationId, ...reached };
  }

  private async daySpend(settings: UsageSettings): Promise<Spend> {
    const since = startOfDay(this.dependencies.now());
    const sessions = (await this.dependencies.store.listSessions()).filter((session) => session.updatedAt >= since);
    const steps: StepSpend[] = [];
    for (const row of sessions) {
      const session = await this.ledger.session(row.sessionId, row.lastSeq);
      steps.push(...session.steps.filter((step) => step.time >= since));
    }
    return spendOfSteps(steps, settings.prices);
  }

  private async notify(sessionId: string, turnId: string, reached: BudgetReached, message: string): Promise<string> {
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
