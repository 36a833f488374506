import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentEventDraft } from '../protocol/agent-event';
import type { TokenUsage } from '../protocol/token-usage';
import { BudgetGuard } from './budget-guard';
import { MemoryEventStore } from '../session-log/memory-event-store';
import type { Runtime } from '../runtime/runtime';
import type { UsageSettings } from './usage-settings';
import { initialClientState } from '../state/client-state';
import { reduceEvents } from '../state/reduce-events';
import { testRuntime } from '../../tests/support/test-runtime';
import { reachedBudget, spendOfEvents, type Spend } from './budget-state';
import { estimateCostByModel } from './estimate-cost';
import { KNOWN_PRICES } from './known-prices';

const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date(2026, 11, 1, 15, 0, 0).getTime();
const MODELS = ['gpt-4o', 'claude-sonnet-4', 'no-price-model', undefined] as const;

interface GeneratedStep {
  session: number;
  /** Days before today (0 is today). */
  daysAgo: number;
  model: (typeof MODELS)[number];
  usage: TokenUsage | undefined;
}

const figure = fc.option(fc.integer({ min: 0, max: 50_000 }), { nil: undefined });
const stepArbitrary: fc.Arbitrary<GeneratedStep> = fc.record({
  session: fc.integer({ min: 0, max: 2 }),
  daysAgo: fc.integer({ min: 0, max: 2 }),
  model: fc.constantFrom(...MODELS),
  usage: fc.option(
    fc
      .record({
        inputTokens: figure,
        outputTokens: figure,
        cachedShare: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
      })
      // Cached input is part of the input, as providers report it.
      .map(({ cachedShare, ...usage }) => ({
        ...Object.fromEntries(Object.entries(usage).filter(([, value]) => value !== undefined)),
        ...(usage.inputTokens !== undefined && cachedShare !== null
          ? { cachedInputTokens: Math.floor(usage.inputTokens * cachedShare) }
          : {}),
      })),
    { nil: undefined },
  ),
});

const budgetArbitrary = fc.option(
  fc.oneof(
    fc.record({ unit: fc.constant('tokens' as const), limit: fc.integer({ min: 1, max: 200_000 }) }),
    fc.record({ unit: fc.constant('money' as const), limit: fc.double({ min: 0.001, max: 2, noNaN: true }) }),
  ),
  { nil: undefined },
);

type DeliveryPlan = { batch: number; resend: boolean[]; restarts: boolean[]; order: number[] };

/** How the steps reach the log: in batches, a batch sometimes sent twice (a lost reply), the runtime sometimes restarted. */
const deliveryArbitrary = fc.record({
  batch: fc.integer({ min: 1, max: 4 }),
  resend: fc.array(fc.boolean(), { maxLength: 20 }),
  restarts: fc.array(fc.boolean(), { maxLength: 20 }),
  order: fc.array(fc.nat(), { maxLength: 30 }),
});

function stepDrafts(step: GeneratedStep, index: number): AgentEventDraft[] {
  const sessionId = `session-${step.session}`;
  const turnId = `turn-${index}`;
  const ids = { sessionId, turnId, stepId: `step-${index}`, attemptId: `attempt-${index}` };
  const time = NOW - step.daysAgo * DAY - 60_000 + index;
  return [
    { type: 'turn/started', sessionId, turnId, time, data: { userItemId: `user-${index}`, text: 'go' } },
    { type: 'step/started', ...ids, time, data: { index: 0 } },
    {
      type: 'step/completed',
      ...ids,
      time,
      data: {
        finishReason: 'stop',
        ...(step.usage ? { usage: step.usage } : {}),
        ...(step.model ? { model: step.model } : {}),
      },
    },
    { type: 'turn/completed', sessionId, turnId, time, data: { reason: 'stop' } },
  ];
}

/** The sum straight from the generated steps, with no log, order or dedupe involved. */
function directSpend(steps: GeneratedStep[], include: (step: GeneratedStep) => boolean): Spend {
  let tokens = 0;
  let dollars = 0;
  for (const step of steps) {
    if (!step.usage || !include(step)) continue;
    tokens += (step.usage.inputTokens ?? 0) + (step.usage.outputTokens ?? 0);
    dollars += estimateCostByModel({ [step.model ?? '']: step.usage }, KNOWN_PRICES)?.dollars ?? 0;
  }
  return { tokens, dollars };
}

function newRuntime(store: MemoryEventStore): Runtime {
  return testRuntime({ store, now: () => NOW });
}

async function record(store: MemoryEventStore, steps: GeneratedStep[], delivery: DeliveryPlan): Promise<void> {
  let runtime = newRuntime(store);
  const drafts = steps.flatMap(stepDrafts);
  let batchIndex = 0;
  for (let start = 0; start < drafts.length; start += delivery.batch, batchIndex++) {
    const batch = drafts.slice(start, start + delivery.batch);
    const bySession = new Map<string, AgentEventDraft[]>();
    for (const draft of batch) bySession.set(draft.sessionId, [...(bySession.get(draft.sessionId) ?? []), draft]);
    for (const [sessionId, events] of bySession) {
      const batchId = `batch-${batchIndex}-${sessionId}`;
      await runtime.append(sessionId, events, batchId);
      if (delivery.restarts[batchIndex]) runtime = newRuntime(store);
      if (delivery.resend[batchIndex]) await runtime.append(sessionId, events, batchId);
    }
  }
}

function close(left: Spend, right: Spend): void {
  expect(left.tokens).toBe(right.tokens);
  expect(left.dollars).toBeCloseTo(right.dollars, 9);
}

describe('usage and budget state derived from the log', () => {
  it('equal a direct sum over the generated steps, whatever the order, duplicates or restarts', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArbitrary, { minLength: 1, maxLength: 12 }),
        deliveryArbitrary,
        budgetArbitrary,
        budgetArbitrary,
        async (steps, delivery, conversationBudget, dayBudget) => {
          const store = new MemoryEventStore();
          await record(store, steps, delivery);
          const settings: UsageSettings = {
            prices: [...KNOWN_PRICES],
            budgets: {
              ...(conversationBudget ? { conversation: conversationBudget } : {}),
              ...(dayBudget ? { day: dayBudget } : {}),
            },
            browserNotifications: false,
          };
          const guard = new BudgetGuard({
            store,
            settings: async () => settings,
            now: () => NOW,
            newId: () => 'notification',
            recordNotifications: async () => undefined,
          });
          const conversation = directSpend(steps, (step) => step.session === 0);
          const day = directSpend(steps, (step) => step.daysAgo === 0);
          const check = await guard.check('session-0');
          close(check.conversation, conversation);
          if (dayBudget) close(check.day, day);
          expect(check.reached ? check.budget : undefined).toBe(
            reachedBudget(settings.budgets, { conversation, day: dayBudget ? day : conversation })?.budget,
          );

          // The panel's reducer over the same log, delivered shuffled and twice, gives the same conversation figures.
          const log = await store.read('session-0', 0);
          const shuffled = [
            ...(log.length ? delivery.order.map((index) => log[index % log.length]!) : []),
            ...log,
            ...log,
          ];
          const state = reduceEvents(initialClientState('session-0'), shuffled);
          const reduced = state.usage ? (state.usage.inputTokens ?? 0) + (state.usage.outputTokens ?? 0) : 0;
          expect(reduced).toBe(conversation.tokens);
          expect(estimateCostByModel(state.usageByModel, KNOWN_PRICES)?.dollars ?? 0).toBeCloseTo(
            conversation.dollars,
            9,
          );
          close(spendOfEvents(shuffled, KNOWN_PRICES), conversation);
        },
      ),
      { numRuns: 100 },
    );
  });
});
