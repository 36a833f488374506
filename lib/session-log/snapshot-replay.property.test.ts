import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/agent-event';
import { firstDifference, meaningfulState } from '../../tests/support/meaningful-state';
import { Random } from '../../tests/support/random';
import { generateRun } from '../../tests/support/run-generator';
import { testRuntime } from '../../tests/support/test-runtime';
import { reduceEvents, replayLog } from '../state/reduce-events';
import { stateAfter, takeSnapshot, usableSnapshot, withOlderTurns } from '../state/state-snapshot';
import type { ClientState } from '../state/client-state';
import { MemoryEventStore } from './memory-event-store';
import type { Runtime } from '../runtime/runtime';
import { SnapshotKeeper } from './snapshot-keeper';
import {
  advanceSnapshot,
  stateOfRows,
  touchedTurnIds,
  usableHead,
  usableRows,
  type SnapshotParts,
} from './snapshot-advance';
import { TEST_SNAPSHOT_BOOK } from '../../tests/support/test-runtime';

const RUNS = 8;
/** Generated logs (maxTurns 3) with a Retry step among their first events: the kill test stops at each of theirs too. */
const STEP_RETRY_SEEDS = [31, 43];
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
  return testRuntime({
    store,
    newId: () => 'id',
    // One turn per window and per page, so that every resume pages in every older turn; a log more than eight
    // events past its snapshot is built on it eight events at a time.
    snapshots: { every: 1, delayMs: 0, setTimer: () => {}, windowTurns: 1, pageSize: 8 },
  });
}

/** The panel's way: the window, then older pages one turn at a time until none is left. */
async function pagedIn(runtime: Runtime, state: ClientState, live: AgentEvent[]): Promise<ClientState> {
  let paged = reduceEvents(state, live.splice(0));
  while (paged.olderTurns > 0) {
    const page = await runtime.turnsBefore(state.sessionId, paged.olderTurns, 1);
    // What the runtime recorded before serving the page reaches a port before the page does.
    paged = reduceEvents(paged, live.splice(0));
    expect(page.lastSeq).toBe(paged.lastSeq);
    paged = withOlderTurns(paged, transported(page.turns) as typeof page.turns, page.olderTurns);
  }
  return reduceEvents(paged, live.splice(0));
}

/** A stored snapshot's rows merged as a store merges them: later rows replace earlier ones at their position. */
function mergedRows(stored: SnapshotParts['rows'], written: SnapshotParts['rows']): SnapshotParts['rows'] {
  const byPosition = new Map(stored.map((row) => [row.position, row]));
  for (const row of written) byPosition.set(row.position, row);
  return [...byPosition.values()];
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
    const seeds = [...Array.from({ length: RUNS }, (_, index) => index + 1), ...STEP_RETRY_SEEDS];
    for (const seed of seeds) {
      const log = await durableLogOf(seed);
      if (STEP_RETRY_SEEDS.includes(seed))
        expect(log.some((event) => event.type === 'turn/started' && event.data.retriesStep)).toBe(true);
      const sessionId = log[0].sessionId;
      const random = new Random(seed);
      for (let killAt = 1; killAt <= log.length; killAt++) {
        const store = new MemoryEventStore();
        const timers: (() => void)[] = [];
        const keeper = new SnapshotKeeper({
          book: TEST_SNAPSHOT_BOOK,
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
        if (usableHead(await store.snapshots.readHead(sessionId), sessionId, log[killAt - 1].seq)) withSnapshot++;
        const restarted = runtimeOn(store);
        const live: AgentEvent[] = [];
        const subscription = await restarted.subscribe(sessionId, (event) => live.push(event));
        const state = usableSnapshot(transported(subscription.state), sessionId, subscription.snapshotSeq);
        expect(state, `seed ${seed} kill at ${killAt}`).toBeDefined();
        const resumed = await pagedIn(restarted, stateAfter(sessionId, state, subscription.snapshot), live);
        // A restarted runtime may record events of its own (a job it did not start is orphaned): the panel gets them live.
        const expected = meaningfulState(replayLog(sessionId, await store.read(sessionId, 0)));
        expect(firstDifference(expected, meaningfulState(resumed)), `seed ${seed} kill at ${killAt}`).toBeUndefined();
        expect(subscription.snapshotSeq).toBe(log[killAt - 1].seq);
        kills++;
      }
    }
    console.log(`[property] kills: ${kills}, of which resumed from a snapshot: ${withSnapshot}`);
    expect(withSnapshot).toBeGreaterThan(kills / 4);
  });

  it('advancing a stored snapshot by the rows its tail touches equals building it from the whole log', async () => {
    let advances = 0;
    for (let seed = 1; seed <= RUNS; seed++) {
      const log = await durableLogOf(seed);
      const sessionId = log[0].sessionId;
      const random = new Random(seed);
      let stored: SnapshotParts = advanceSnapshot(sessionId, undefined, [], TEST_SNAPSHOT_BOOK)!;
      let cut = 0;
      while (cut < log.length) {
        const next = Math.min(log.length, cut + random.int(1, 12));
        const tail = log.slice(cut, next);
        const touched = stored.rows.filter((row) => touchedTurnIds(tail).includes(row.turnId));
        const advanced = advanceSnapshot(sessionId, { head: stored.head, rows: touched }, tail, TEST_SNAPSHOT_BOOK)!;
        stored = { head: advanced.head, rows: mergedRows(stored.rows, advanced.rows) };
        cut = next;
        const head = usableHead(transported(stored.head), sessionId, log.at(-1)!.seq)!;
        const rows = usableRows(transported(stored.rows) as unknown[], sessionId)!;
        expect(rows).toHaveLength(head.turnCount);
        const expected = meaningfulState(replayLog(sessionId, log.slice(0, cut)));
        expect(
          firstDifference(expected, meaningfulState(stateOfRows(head, rows))),
          `seed ${seed} at ${cut}`,
        ).toBeUndefined();
        advances++;
      }
    }
    console.log(`[property] incremental snapshot advances: ${advances}`);
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
