import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/agent-event';
import { firstDifference, meaningfulState } from '../../tests/support/meaningful-state';
import { Random } from '../../tests/support/random';
import { generateRun } from '../../tests/support/run-generator';
import { replayLog } from '../state/reduce-events';
import { stateAfter, takeSnapshot, usableSnapshot } from '../state/session-snapshot';
import { MemoryEventStore } from './memory-event-store';
import { Runtime } from './runtime';
import { SnapshotKeeper } from './snapshot-keeper';

const RUNS = 8;
/** Bounds each run's log, so that the quadratic kill-at-every-write loop stays fast. */
const MAX_EVENTS = 90;

/** What crosses a port or IndexedDB: a JSON round trip drops undefined fields, as extension messaging does. */
function transported<T>(value: T): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

async function durableLogOf(seed: number): Promise<AgentEvent[]> {
  const run = await generateRun(seed, { maxTurns: 3 });
  return run.log.slice(0, MAX_EVENTS);
}

function runtimeOn(store: MemoryEventStore): Runtime {
  return new Runtime({
    store,
    executeTool: async () => ({ ok: true }),
    now: () => 1,
    newId: () => 'id',
    snapshots: { every: 1, delayMs: 0, setTimer: () => {} },
  });
}

describe('snapshot + tail equals a full replay', () => {
  it('at every snapshot point of generated logs', async () => {
    let points = 0;
    for (let seed = 1; seed <= RUNS; seed++) {
      const log = await durableLogOf(seed);
      const sessionId = log[0].sessionId;
      const expected = meaningfulState(replayLog(sessionId, log));
      for (let cut = 0; cut <= log.length; cut++) {
        const snapshot = takeSnapshot(replayLog(sessionId, log.slice(0, cut)));
        const usable = usableSnapshot(transported(snapshot), sessionId, log.at(-1)!.seq);
        expect(usable, `seed ${seed} cut ${cut}`).toBeDefined();
        const resumed = stateAfter(sessionId, usable, log.slice(cut));
        expect(firstDifference(expected, meaningfulState(resumed)), `seed ${seed} cut ${cut}`).toBeUndefined();
        points++;
      }
    }
    console.log(`[property] snapshot points: ${points} over ${RUNS} logs`);
  });

  it('after a kill at every durable write, with snapshots written at random moments before it', async () => {
    let kills = 0;
    let withSnapshot = 0;
    for (let seed = 1; seed <= RUNS; seed++) {
      const log = await durableLogOf(seed);
      const sessionId = log[0].sessionId;
      const random = new Random(seed);
      for (let killAt = 1; killAt <= log.length; killAt++) {
        const store = new MemoryEventStore();
        const timers: (() => void)[] = [];
        const keeper = new SnapshotKeeper({
          store,
          every: random.int(1, 8),
          delayMs: 0,
          setTimer: (run) => void timers.push(run),
        });
        for (const event of log.slice(0, killAt)) {
          await store.append(sessionId, [event]);
          keeper.noted(sessionId, 1);
          // Some scheduled snapshots are written before the kill, the rest are lost with the worker.
          if (random.int(0, 2) === 0) for (const run of timers.splice(0)) run();
          await keeper.settled();
        }
        const restarted = runtimeOn(store);
        const subscription = await restarted.subscribe(sessionId, () => {});
        const state = usableSnapshot(transported(subscription.state), sessionId, subscription.snapshotSeq);
        if (state) withSnapshot++;
        const resumed = stateAfter(sessionId, state, subscription.snapshot);
        const expected = meaningfulState(replayLog(sessionId, log.slice(0, killAt)));
        expect(firstDifference(expected, meaningfulState(resumed)), `seed ${seed} kill at ${killAt}`).toBeUndefined();
        expect(subscription.snapshotSeq).toBe(log[killAt - 1].seq);
        kills++;
      }
    }
    console.log(`[property] kills: ${kills}, of which resumed from a snapshot: ${withSnapshot}`);
    expect(withSnapshot).toBeGreaterThan(kills / 4);
  });

  it('rebuilds instead of trusting a snapshot of another format, another session or ahead of the log', async () => {
    const log = await durableLogOf(1);
    const sessionId = log[0].sessionId;
    const snapshot = takeSnapshot(replayLog(sessionId, log))!;
    expect(usableSnapshot({ ...snapshot, format: '0/1' }, sessionId, snapshot.snapshotSeq)).toBeUndefined();
    expect(usableSnapshot(snapshot, 'another-session', snapshot.snapshotSeq)).toBeUndefined();
    expect(usableSnapshot(snapshot, sessionId, snapshot.snapshotSeq - 1)).toBeUndefined();
    expect(usableSnapshot({ ...snapshot, state: { title: 1 } }, sessionId, snapshot.snapshotSeq)).toBeUndefined();
  });
});
