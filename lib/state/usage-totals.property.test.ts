import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/agent-event';
import { TOKEN_USAGE_FIELDS, type TokenUsage } from '../protocol/token-usage';
import { EventLog } from '../../tests/support/event-log';
import { initialClientState, type ClientState } from './client-state';
import { reduceEvents } from './reduce-events';

const figure = fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: undefined });
const usageArbitrary = fc.option(
  fc.record({ inputTokens: figure, outputTokens: figure, reasoningTokens: figure, cachedInputTokens: figure }),
  { nil: undefined },
);
/** Turns of steps, each step reporting some usage or none. */
const turnsArbitrary = fc.array(fc.array(usageArbitrary, { minLength: 1, maxLength: 4 }), {
  minLength: 1,
  maxLength: 4,
});

function withoutAbsent(usage: Partial<Record<keyof TokenUsage, number | undefined>>): TokenUsage {
  return Object.fromEntries(Object.entries(usage).filter(([, value]) => value !== undefined));
}

function buildLog(turns: (TokenUsage | undefined)[][]): EventLog {
  const log = new EventLog();
  log.add({ type: 'session/created', data: { title: 'Usage' } });
  turns.forEach((steps, turnIndex) => {
    const turnId = `turn-${turnIndex}`;
    log.turnStarted(turnId);
    steps.forEach((usage, stepIndex) => {
      const ids = { turnId, stepId: `step-${turnIndex}-${stepIndex}`, attemptId: `attempt-${turnIndex}-${stepIndex}` };
      log.stepStarted(ids, stepIndex);
      log.add({
        type: 'step/completed',
        ...ids,
        data: { finishReason: 'stop', ...(usage ? { usage: withoutAbsent(usage) } : {}) },
      });
    });
    log.turnCompleted(turnId);
  });
  return log;
}

/** The direct sum over the distinct step/completed events: a figure no step reported is absent. */
function directSum(events: readonly AgentEvent[]): TokenUsage | undefined {
  const distinct = new Map<number, AgentEvent>();
  for (const event of events) if (event.type === 'step/completed') distinct.set(event.seq, event);
  const total: TokenUsage = {};
  for (const event of distinct.values()) {
    if (event.type !== 'step/completed') continue;
    for (const field of TOKEN_USAGE_FIELDS) {
      const value = event.data.usage?.[field];
      if (value !== undefined) total[field] = (total[field] ?? 0) + value;
    }
  }
  return Object.keys(total).length ? total : undefined;
}

/** Every event delivered at least once, in an arbitrary order, in batches. */
const deliveryArbitrary = (count: number) =>
  fc.record({
    order: fc.array(fc.integer({ min: 0, max: count - 1 }), { minLength: 0, maxLength: count * 2 }),
    batch: fc.integer({ min: 1, max: 6 }),
  });

function deliver(events: readonly AgentEvent[], order: number[], batch: number): ClientState {
  const shuffled = [
    ...order.map((index) => events[index]),
    ...events.slice().reverse(),
    ...order.map((index) => events[index]),
  ];
  let state = initialClientState('session-1');
  for (let start = 0; start < shuffled.length; start += batch)
    state = reduceEvents(state, shuffled.slice(start, start + batch));
  return state;
}

describe('usage totals derived from the log', () => {
  it('equal a direct sum over the distinct step/completed events, per turn and per conversation, whatever the delivery', () => {
    fc.assert(
      fc.property(
        turnsArbitrary.chain((turns) => {
          const { events } = buildLog(turns);
          return fc.tuple(fc.constant(events), deliveryArbitrary(events.length));
        }),
        ([events, { order, batch }]) => {
          const state = deliver(events, order, batch);
          expect(state.gap).toBeNull();
          expect(state.usage).toEqual(directSum(events));
          for (const turnId of state.turnOrder) {
            const ofTurn = events.filter((event) => 'turnId' in event && event.turnId === turnId);
            expect(state.turns[turnId].usage).toEqual(directSum(ofTurn));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('leave a figure no step reported absent, not 0', () => {
    const { events } = buildLog([[{ inputTokens: 5 }, undefined, { inputTokens: 7, outputTokens: 2 }]]);
    const state = reduceEvents(initialClientState('session-1'), events);
    expect(state.usage).toEqual({ inputTokens: 12, outputTokens: 2 });
    expect(state.usage).not.toHaveProperty('reasoningTokens');
    expect(reduceEvents(initialClientState('session-1'), buildLog([[undefined]]).events).usage).toBeUndefined();
  });
});
