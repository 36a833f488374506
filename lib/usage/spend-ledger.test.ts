import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/agent-event';
import { MemoryEventStore } from '../session-log/memory-event-store';
import { budgetNoticeKey, SPEND_PAGE_EVENTS, SpendLedger } from './spend-ledger';

const sessionId = 'session-1';

function step(seq: number, inputTokens: number): AgentEvent {
  return {
    type: 'step/completed',
    seq,
    sessionId,
    turnId: 'turn-1',
    stepId: `step-${seq}`,
    attemptId: 'attempt-1',
    time: 1000 + seq,
    data: { finishReason: 'stop', usage: { inputTokens, outputTokens: 1 }, model: 'gpt-4o' },
  } as AgentEvent;
}

class CountingStore extends MemoryEventStore {
  readonly reads: number[] = [];
  readonly limits: (number | undefined)[] = [];
  override async read(session: string, afterSeq: number, limit?: number): Promise<AgentEvent[]> {
    this.reads.push(afterSeq);
    this.limits.push(limit);
    return super.read(session, afterSeq, limit);
  }
}

describe('SpendLedger', () => {
  it('folds only the events appended since the previous check', async () => {
    const store = new CountingStore();
    const ledger = new SpendLedger(store);
    await store.append(sessionId, [step(1, 10), step(2, 20)]);
    expect((await ledger.session(sessionId)).steps.map((entry) => entry.usage.inputTokens)).toEqual([10, 20]);
    expect((await ledger.session(sessionId)).steps).toHaveLength(2);
    await store.append(sessionId, [step(3, 30)]);
    expect((await ledger.session(sessionId)).steps.map((entry) => entry.usage.inputTokens)).toEqual([10, 20, 30]);
    expect(store.reads).toEqual([0, 2]);
  });

  it('folds a long log a page at a time, never reading it whole', async () => {
    const store = new CountingStore();
    const count = SPEND_PAGE_EVENTS * 2 + 5;
    await store.append(
      sessionId,
      Array.from({ length: count }, (_, index) => step(index + 1, 1)),
    );
    expect((await new SpendLedger(store).session(sessionId)).steps).toHaveLength(count);
    expect(store.reads).toEqual([0, SPEND_PAGE_EVENTS, SPEND_PAGE_EVENTS * 2]);
    expect(store.limits.every((limit) => limit === SPEND_PAGE_EVENTS)).toBe(true);
  });

  it('refolds a session whose log was deleted and started again under the same id', async () => {
    const store = new MemoryEventStore();
    const ledger = new SpendLedger(store);
    await store.append(sessionId, [step(1, 10), step(2, 20)]);
    await ledger.session(sessionId);
    await store.deleteSession(sessionId);
    await store.append(sessionId, [step(1, 5)]);
    expect((await ledger.session(sessionId)).steps.map((entry) => entry.usage.inputTokens)).toEqual([5]);
  });

  it('remembers turns started over budget and budget notices already recorded', async () => {
    const store = new MemoryEventStore();
    const ledger = new SpendLedger(store);
    await store.append(sessionId, [
      {
        type: 'turn/started',
        seq: 1,
        sessionId,
        turnId: 'turn-1',
        time: 1,
        data: { userItemId: 'u', text: 'go', overBudget: true },
      },
      {
        type: 'notify/budget-reached',
        seq: 2,
        sessionId,
        notificationId: 'notice-1',
        turnId: 'turn-2',
        time: 2,
        data: { budget: 'day', unit: 'tokens', limit: 1, used: 2, message: 'over' },
      },
    ] as AgentEvent[]);
    const session = await ledger.session(sessionId);
    expect(session.overBudgetTurns.has('turn-1')).toBe(true);
    expect(session.budgetNotices.get(budgetNoticeKey('turn-2', 'day'))).toBe('notice-1');
  });
});
