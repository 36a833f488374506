import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { modelHistory } from '../agent/model-history';
import { AGENT_EVENT_SCHEMA_VERSION, type AgentEvent } from '../protocol/agent-event';
import { activeTurnOrder, pathTo } from '../state/branch-tree';
import { reduceEvents, replayLog } from '../state/reduce-events';
import { generateRun } from '../../tests/support/run-generator';
import { forkDrafts } from './fork-drafts';
import { rewindDraft, rewindPlan } from './rewind-plan';
import { REWIND_MODES } from '../protocol/rewind-events';

/** The drafts as the log would stamp them. */
function stamped(drafts: ReturnType<typeof forkDrafts> & { ok: true }): AgentEvent[] {
  return drafts.drafts.map(
    (draft, index) =>
      ({ ...draft, seq: index + 1, durable: true, schemaVersion: AGENT_EVENT_SCHEMA_VERSION }) as AgentEvent,
  );
}

describe('forkDrafts', () => {
  it('gives any generated log a fork that is the branch up to the turn, sent to the model alike', async () => {
    let forks = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (seed, pick) => {
          const run = await generateRun(seed, { maxTurns: 6 });
          const source = replayLog(run.sessionId, run.log);
          const turnId = source.turnOrder[Math.floor(pick * source.turnOrder.length)];
          if (!turnId) return;
          const plan = forkDrafts(run.log, turnId, 'fork', 1);
          if (!plan.ok) {
            expect(plan.reason).toMatch(/still open/);
            return;
          }
          forks += 1;
          const fork = replayLog('fork', stamped(plan));
          const path = pathTo(source.branches, turnId);
          expect(fork.turnOrder).toEqual(path);
          expect(activeTurnOrder(fork)).toEqual(path);
          const sourceAtTurn = { ...source, branches: { ...source.branches, leaf: turnId } };
          expect(modelHistory(fork)).toEqual(modelHistory(sourceAtTurn));
          for (const each of path) expect(fork.turns[each]?.entries).toEqual(source.turns[each]?.entries);
          // Its tokens were spent, and are counted, in the original only.
          expect(fork.usage).toBeUndefined();
        },
      ),
      { numRuns: 150 },
    );
    console.log(`[property] forks: ${forks}`);
    expect(forks).toBeGreaterThan(50);
  }, 120_000);

  it('rewinds any generated log (rewinds among its events) to before a turn, the same live as replayed', async () => {
    let rewinds = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom(...REWIND_MODES),
        async (seed, pick, mode) => {
          const run = await generateRun(seed, { maxTurns: 6 });
          const source = replayLog(run.sessionId, run.log);
          const turnId = source.turnOrder[Math.floor(pick * source.turnOrder.length)];
          if (!turnId) return;
          const plan = rewindPlan(run.log, turnId);
          if (!plan.ok) {
            expect(plan.reason).toMatch(/still running/);
            return;
          }
          rewinds += 1;
          const lastSeq = run.log.at(-1)?.seq ?? 0;
          const event = {
            ...rewindDraft(run.sessionId, plan, { rewindId: `rewind-${rewinds}`, mode, restoredAs: new Map() }, 1),
            seq: lastSeq + 1,
            durable: true,
            schemaVersion: AGENT_EVENT_SCHEMA_VERSION,
          } as AgentEvent;
          const live = reduceEvents(source, [event]);
          expect(replayLog(run.sessionId, [...run.log, event])).toEqual(live);
          const parent = source.branches.parents[turnId] ?? null;
          expect(activeTurnOrder(live)).toEqual(pathTo(live.branches, parent));
          expect(live.turnOrder).toEqual(source.turnOrder);
          expect(live.branches.rewound).toEqual({ turnId, fromLeaf: source.branches.leaf, mode });
        },
      ),
      { numRuns: 150 },
    );
    console.log(`[property] rewinds: ${rewinds}`);
    expect(rewinds).toBeGreaterThan(50);
  }, 120_000);
});
