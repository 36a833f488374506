import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EVENT_DURABILITY, type AgentEvent } from '../protocol/agent-event';
import { deliverChaotically, snapshotAt, type DeliveryStats } from '../../tests/support/delivery';
import { firstDifference, meaningfulState } from '../../tests/support/meaningful-state';
import { Random } from '../../tests/support/random';
import { generateRun, type GeneratedRun } from '../../tests/support/run-generator';
import { initialClientState } from './client-state';
import { reduceEvents, replayLog } from './reduce-events';

const NUM_RUNS = 400;
const TIMEOUT_MS = 120_000;

function report(name: string, runs: number, divergences: string[], extra = ''): void {
  console.log(`[property] ${name}: runs=${runs} divergences=${divergences.length}${extra}`);
}

function describeRun(run: GeneratedRun): string {
  return `${run.live.length} live events, ${run.log.length} durable, ${run.restarts.length} restarts`;
}

/** Sums a delivery's counters into a running total. */
function addStats(total: DeliveryStats, stats: DeliveryStats): void {
  for (const key of Object.keys(stats) as (keyof DeliveryStats)[]) total[key] += stats[key];
}

describe('reduceEvents: any delivery of a run gives the state of the complete ordered stream', () => {
  it(
    'holds for chunking, duplicates, reordering, disconnects with snapshot or cursor resume, and a full replay',
    async () => {
      const divergences: string[] = [];
      const totals: DeliveryStats = {
        batches: 0,
        duplicates: 0,
        reordered: 0,
        disconnects: 0,
        snapshotResumes: 0,
        cursorResumes: 0,
        overlaps: 0,
        silentLosses: 0,
        tailFetches: 0,
      };
      let runs = 0;
      let liveEvents = 0;
      const typesSeen = new Set<string>();
      let stepRetryRuns = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 2 ** 31 - 1 }),
          fc.integer({ min: 0, max: 2 ** 31 - 1 }),
          async (runSeed, deliverySeed) => {
            runs += 1;
            const run = await generateRun(runSeed);
            liveEvents += run.live.length;
            for (const event of run.live) typesSeen.add(event.type);
            if (run.live.some((event) => event.type === 'turn/started' && event.data.retriesStep)) stepRetryRuns += 1;
            const expected = meaningfulState(replayLog(run.sessionId, run.live));
            const random = new Random(deliverySeed);
            for (let delivery = 0; delivery < 3; delivery++) {
              const result = deliverChaotically(run, random);
              addStats(totals, result.stats);
              const difference = firstDifference(expected, meaningfulState(result.state));
              const problems = [
                ...result.violations,
                ...(difference ? [difference] : []),
                ...(result.state.gap ? ['gap left open'] : []),
              ];
              if (problems.length)
                divergences.push(
                  `run ${runSeed} delivery ${deliverySeed}#${delivery} (${describeRun(run)}): ${problems.slice(0, 3).join(' | ')}`,
                );
            }
          },
        ),
        { numRuns: NUM_RUNS },
      );
      report('chaotic delivery', runs, divergences, ` liveEvents=${liveEvents} ${JSON.stringify(totals)}`);
      expect(runs).toBeGreaterThanOrEqual(300);
      // The generated runs cover every event type there is.
      const missingTypes = Object.keys(EVENT_DURABILITY).filter((type) => !typesSeen.has(type));
      expect(missingTypes).toEqual([]);
      // And a Retry step after a failed model request (a turn/started field, not a type of its own).
      expect(stepRetryRuns).toBeGreaterThan(0);
      expect(totals.disconnects).toBeGreaterThan(0);
      expect(totals.silentLosses).toBeGreaterThan(0);
      expect(divergences.slice(0, 5)).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    'the durable log alone, and snapshot-then-live at many points, equal the live stream',
    async () => {
      const divergences: string[] = [];
      let runs = 0;
      let resumes = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 2 ** 31 - 1 }),
          fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 5, maxLength: 25 }),
          async (runSeed, points) => {
            runs += 1;
            const run = await generateRun(runSeed);
            const expected = meaningfulState(replayLog(run.sessionId, run.live));
            const positions = [0, run.live.length, ...points.map((point) => Math.floor(point * run.live.length))];
            const fromLog = firstDifference(expected, meaningfulState(replayLog(run.sessionId, run.log)));
            if (fromLog) divergences.push(`run ${runSeed}: log replay ${fromLog}`);
            for (const position of positions) {
              resumes += 1;
              const resumed = reduceEvents(
                replayLog(run.sessionId, snapshotAt(run, position), 1),
                run.live.slice(position),
              );
              const difference = firstDifference(expected, meaningfulState(resumed));
              if (difference) {
                divergences.push(`run ${runSeed}: snapshot at ${position} then live: ${difference}`);
                break;
              }
            }
          },
        ),
        { numRuns: NUM_RUNS },
      );
      report('log replay and snapshot-then-live', runs, divergences, ` resumePoints=${resumes}`);
      expect(runs).toBeGreaterThanOrEqual(300);
      expect(divergences.slice(0, 5)).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    "the runtime's real snapshots are what snapshotAt computes, and no tool ever ran twice",
    async () => {
      const divergences: string[] = [];
      let runs = 0;
      let snapshots = 0;
      let toolCalls = 0;
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: 2 ** 31 - 1 }), async (runSeed) => {
          runs += 1;
          const run = await generateRun(runSeed, { snapshotChance: 0.2, restartChance: 0.2 });
          for (const captured of run.snapshots) {
            snapshots += 1;
            const expected = snapshotAt(run, captured.position);
            if (JSON.stringify(captured.events) !== JSON.stringify(expected))
              divergences.push(`run ${runSeed}: snapshot at ${captured.position} differs`);
            const lastDurable = expected.filter((event) => event.durable).at(-1)?.seq ?? 0;
            if (captured.snapshotSeq !== lastDurable)
              divergences.push(`run ${runSeed}: snapshotSeq ${captured.snapshotSeq}, last durable ${lastDurable}`);
          }
          toolCalls += run.requestedToolCalls.size;
          const seqs = run.log.map((event) => event.seq);
          if (seqs.some((seq, index) => seq !== index + 1))
            divergences.push(`run ${runSeed}: log seqs are not 1..n: ${seqs.join(',')}`);
          for (const toolCallId of run.requestedToolCalls) {
            const outcomes = run.log.filter(
              (event) =>
                'toolCallId' in event &&
                event.toolCallId === toolCallId &&
                ['tool/completed', 'tool/failed', 'tool/unknown'].includes(event.type),
            );
            const crashed = run.crashedToolCalls.has(toolCallId);
            const expected = crashed ? 'tool/unknown' : 'tool/completed|tool/failed';
            if (outcomes.length !== 1 || !expected.split('|').includes(outcomes[0].type)) {
              divergences.push(
                `run ${runSeed}: ${toolCallId} has outcomes [${outcomes.map((event) => event.type)}], expected one ${expected}`,
              );
            }
            const ran = run.executions.get(toolCallId) ?? 0;
            if (ran !== (crashed ? 0 : 1))
              divergences.push(`run ${runSeed}: ${toolCallId} ran ${ran} times${crashed ? ' after a crash' : ''}`);
          }
        }),
        { numRuns: NUM_RUNS },
      );
      report(
        'runtime snapshots and tool execution',
        runs,
        divergences,
        ` snapshots=${snapshots} toolCalls=${toolCalls}`,
      );
      expect(snapshots).toBeGreaterThan(0);
      expect(divergences.slice(0, 5)).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    'a durable log delivered as any permutation with duplicates, in any chunks, gives the ordered result',
    async () => {
      const divergences: string[] = [];
      let runs = 0;
      const logs: { sessionId: string; log: AgentEvent[] }[] = [];
      for (let seed = 1; logs.length < 25; seed++) {
        const run = await generateRun(seed * 7919);
        logs.push({ sessionId: run.sessionId, log: run.log });
      }
      const delivery = fc.integer({ min: 0, max: logs.length - 1 }).chain((index) =>
        fc.shuffledSubarray(logs[index].log).chain((duplicates) => {
          const all = [...logs[index].log, ...duplicates, ...duplicates];
          return fc.tuple(
            fc.constant(index),
            fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length }),
            fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 30 }),
          );
        }),
      );
      fc.assert(
        fc.property(delivery, ([index, events, chunkSizes]) => {
          runs += 1;
          const { sessionId, log } = logs[index];
          let state = initialClientState(sessionId);
          let start = 0;
          for (let chunk = 0; start < events.length; chunk++) {
            const size = chunkSizes[chunk % chunkSizes.length];
            state = reduceEvents(state, events.slice(start, start + size));
            start += size;
          }
          const difference = firstDifference(meaningfulState(replayLog(sessionId, log)), meaningfulState(state));
          if (difference || state.gap || state.pending.length)
            divergences.push(`log ${index}: ${difference ?? 'gap left open'}`);
        }),
        { numRuns: NUM_RUNS },
      );
      report('permuted durable log', runs, divergences);
      expect(runs).toBeGreaterThanOrEqual(300);
      expect(divergences.slice(0, 5)).toEqual([]);
    },
    TIMEOUT_MS,
  );
});
