import { describe, expect, it } from 'vitest';
import type { AgentEventDraft } from '../protocol/agent-event';
import { DEFAULT_USAGE_SETTINGS, type UsageSettings } from './usage-settings';
import { testRuntime } from '../../tests/support/test-runtime';
import { BudgetGuard, refuseTurnOverBudget } from './budget-guard';
import { MemoryEventStore } from '../session-log/memory-event-store';

const NOW = new Date(2026, 11, 1, 12, 0, 0).getTime();

async function setUp(budgets: UsageSettings['budgets'], overBudget = false) {
  const store = new MemoryEventStore();
  let next = 0;
  const runtime = testRuntime({ store, now: () => NOW, newId: () => `id-${(next += 1)}` });
  const sessionId = 'session-1';
  const ids = { sessionId, turnId: 'turn-1', stepId: 'step-1', attemptId: 'attempt-1' };
  const drafts: AgentEventDraft[] = [
    {
      type: 'turn/started',
      sessionId,
      turnId: 'turn-1',
      time: NOW,
      data: { userItemId: 'user-1', text: 'go', ...(overBudget ? { overBudget: true as const } : {}) },
    },
    { type: 'step/started', ...ids, time: NOW, data: { index: 0 } },
    {
      type: 'step/completed',
      ...ids,
      time: NOW,
      data: { finishReason: 'tool-calls', usage: { inputTokens: 1000, outputTokens: 200 }, model: 'gpt-4o' },
    },
  ];
  await runtime.append(sessionId, drafts);
  const guard = new BudgetGuard({
    store,
    settings: async () => ({ ...DEFAULT_USAGE_SETTINGS, budgets }),
    now: () => NOW,
    newId: () => `notification-${(next += 1)}`,
    recordNotifications: (session, events) => runtime.recordNotifications(session, events),
  });
  return { store, guard, sessionId };
}

describe('BudgetGuard', () => {
  it('records the reached budget once per turn, naming the budget and by how much it is over', async () => {
    const { store, guard, sessionId } = await setUp({ conversation: { unit: 'tokens', limit: 1000 } });
    const first = await guard.check(sessionId, 'turn-1');
    const second = await guard.check(sessionId, 'turn-1');
    expect(first).toMatchObject({ reached: true, budget: 'conversation', unit: 'tokens', limit: 1000, used: 1200 });
    expect(first.reached && first.message).toBe('Conversation budget reached: 1,200 of 1,000 tokens, 200 over.');
    expect(second.reached && second.notificationId).toBe(first.reached && first.notificationId);
    const notices = (await store.read(sessionId, 0)).filter((event) => event.type === 'notify/budget-reached');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ turnId: 'turn-1', data: { budget: 'conversation', used: 1200, limit: 1000 } });
  });

  it('counts money at the model price and leaves tokens without a price out of a money budget', async () => {
    const { guard, sessionId } = await setUp({ day: { unit: 'money', limit: 0.004 } });
    const check = await guard.check(sessionId);
    // gpt-4o: 1000 × $2.50 + 200 × $10 per million = $0.0045
    expect(check.conversation.dollars).toBeCloseTo(0.0045, 10);
    expect(check).toMatchObject({ reached: true, budget: 'day', unit: 'money' });
  });

  it('does not stop a turn the user started over budget, and writes nothing for a check before a turn', async () => {
    const { store, guard, sessionId } = await setUp({ conversation: { unit: 'tokens', limit: 10 } }, true);
    expect((await guard.check(sessionId, 'turn-1')).reached).toBe(false);
    expect((await guard.check(sessionId)).reached).toBe(true);
    expect((await store.read(sessionId, 0)).some((event) => event.type.startsWith('notify/'))).toBe(false);
  });

  it('refuses a new turn while a budget is reached, unless the user confirmed going over it once', async () => {
    const { guard, sessionId } = await setUp({ conversation: { unit: 'tokens', limit: 1000 } });
    const start = (overBudget: boolean) => [
      {
        type: 'turn/started',
        data: { userItemId: 'user-2', text: 'again', ...(overBudget ? { overBudget: true } : {}) },
      },
    ];
    await expect(refuseTurnOverBudget(guard, sessionId, start(false))).rejects.toThrow(
      /^Conversation budget reached: 1,200 of 1,000 tokens/,
    );
    await expect(refuseTurnOverBudget(guard, sessionId, start(true))).resolves.toBeUndefined();
    await expect(refuseTurnOverBudget(guard, sessionId, [{ type: 'step/started' }])).resolves.toBeUndefined();
  });

  it('reaches nothing without budgets', async () => {
    const { guard, sessionId } = await setUp({});
    expect(await guard.check(sessionId, 'turn-1')).toMatchObject({ reached: false, conversation: { tokens: 1200 } });
  });
});
