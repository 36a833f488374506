import type { AgentEvent } from '../protocol/agent-event';
import type { BudgetKind, BudgetUnit } from '../protocol/notify-events';
import type { TokenUsage } from '../protocol/token-usage';
import type { Budget, UsageSettings } from './usage-settings';
import { estimateCost } from './estimate-cost';
import { priceForModel, type ModelPrice } from './model-price';

export interface Spend {
  /** Input plus output tokens of every step. */
  tokens: number;
  /** Estimated US dollars of the steps whose model has a price. */
  dollars: number;
}

export const NO_SPEND: Spend = { tokens: 0, dollars: 0 };

export function tokensOf(usage: TokenUsage): number {
  return (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
}

/** The part of a `step/completed` event a spend is made of. */
export interface StepUsage {
  model?: string;
  usage: TokenUsage;
}

/** The spend of steps: tokens of each, and dollars of those whose model has a price. */
export function spendOfSteps(steps: Iterable<StepUsage>, prices: readonly ModelPrice[]): Spend {
  let tokens = 0;
  let dollars = 0;
  for (const step of steps) {
    tokens += tokensOf(step.usage);
    const price = priceForModel(prices, step.model);
    if (price) dollars += estimateCost(step.usage, price);
  }
  return { tokens, dollars };
}

/**
 * The spend of the `step/completed` events among `events` that `counts`; each `(sessionId, seq)` counts once, so
 * a log read twice, out of order or after a restart gives the same sum.
 */
export function spendOfEvents(
  events: Iterable<AgentEvent>,
  prices: readonly ModelPrice[],
  counts: (event: AgentEvent) => boolean = () => true,
): Spend {
  const seen = new Set<string>();
  const steps: StepUsage[] = [];
  for (const event of events) {
    if (event.type !== 'step/completed' || !event.data.usage || !counts(event)) continue;
    const key = `${event.sessionId}\u0000${event.seq}`;
    if (seen.has(key)) continue;
    seen.add(key);
    steps.push({ model: event.data.model, usage: event.data.usage });
  }
  return spendOfSteps(steps, prices);
}

export interface BudgetReached {
  budget: BudgetKind;
  unit: BudgetUnit;
  limit: number;
  used: number;
}

function usedOf(spend: Spend, budget: Budget): number {
  return budget.unit === 'tokens' ? spend.tokens : spend.dollars;
}

/** The first budget the spend has reached (the conversation's before the day's), if any. */
export function reachedBudget(
  budgets: UsageSettings['budgets'],
  spend: Record<BudgetKind, Spend>,
): BudgetReached | undefined {
  for (const kind of ['conversation', 'day'] as const) {
    const budget = budgets[kind];
    if (!budget) continue;
    const used = usedOf(spend[kind], budget);
    if (used >= budget.limit) return { budget: kind, unit: budget.unit, limit: budget.limit, used };
  }
  return undefined;
}

/** Local midnight of the day `time` falls in: the per-day budget counts the steps since then. */
export function startOfDay(time: number): number {
  const day = new Date(time);
  day.setHours(0, 0, 0, 0);
  return day.getTime();
}

/** "Conversation budget reached: 1,200 of 1,000 tokens (200 over)." */
export function describeBudgetReached(reached: BudgetReached, locale?: string): string {
  const name = reached.budget === 'conversation' ? 'Conversation budget' : 'Daily budget';
  const format =
    reached.unit === 'tokens'
      ? (value: number) => `${new Intl.NumberFormat(locale).format(Math.round(value))}`
      : (value: number) =>
          new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', maximumFractionDigits: 4 }).format(value);
  const unit = reached.unit === 'tokens' ? ' tokens' : ' (estimated)';
  const over = reached.used - reached.limit;
  return `${name} reached: ${format(reached.used)} of ${format(reached.limit)}${unit}${over > 0 ? `, ${format(over)} over` : ''}.`;
}

/** Whether an error is the runtime refusing a new turn at a budget, so the panel can offer to go over it once. */
export function isBudgetRefusal(message: string): boolean {
  return /^(Conversation|Daily) budget reached:/.test(message);
}
