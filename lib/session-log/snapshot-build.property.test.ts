import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/agent-event';
import { firstDifference, meaningfulState } from '../../tests/support/meaningful-state';
import { generateRun } from '../../tests/support/run-generator';
import { reduceEvents, replayLog } from '../state/reduce-events';
import type { EventStore } from './event-store';
import { MemoryEventStore } from './memory-event-store';
import { SnapshotKeeper } from './snapshot-keeper';
import { advanceSnapshot, stateOfRows, usableHead, usableRows } from './snapshot-advance';
import { TEST_SNAPSHOT_BOOK } from '../../tests/support/test-runtime';

const RUNS = 6;
/** Each kill builds twice over the log: fewer logs keep the quadratic loop fast. */
const KILL_RUNS = 4;
const PAGE_SIZES = [1, 2, 3, 7, 40, 2_000];
const WRITE_PAGES = [1, 3];

async function durableLogOf(seed: number): Promise<AgentEvent[]> {
  return (await generateRun(seed, { maxTurns: 3 })).log.slice(0, 90);
}

async function storeOf(log: readonly AgentEvent[]): Promise<MemoryEventStore> {
  const store = new MemoryEventStore();
  await store.append(log[0].sessionId, [...log]);
  return store;
}

/** A worker stopped at its `killAt`-th read or snapshot write (0: never), that remembers what it read. */
function dyingStore(store: MemoryEventStore, killAt = 0) {
  let steps = 0;
  const reads: { afterSeq: number; limit: number | undefined }[] = [];
  const step = () => {
    steps += 1;
    // A stopped worker does nothing more: a build that shrugs off a failed checkpoint fails at its next step.
    if (killAt > 0 && steps >= killAt) throw new Error('The worker was stopped.');
  };
  const dying: EventStore = {
    lastSeq: (sessionId) => store.lastSeq(sessionId),
    append: (sessionId, events, batchId) => store.append(sessionId, events, batchId),
    lastBatchId: (sessionId) => store.lastBatchId(sessionId),
    read: async (sessionId, afterSeq, limit) => {
      step();
      reads.push({ afterSeq, limit });
      return store.read(sessionId, afterSeq, limit);
    },
    readToolCall: (sessionId, toolCallId) => store.readToolCall(sessionId, toolCallId),
    listSessions: () => store.listSessions(),
    deleteSession: (sessionId) => store.deleteSession(sessionId),
    snapshots: {
      ...store.snapshots,
      write: async (head, rows, options) => {
        step();
        return store.snapshots.write(head, rows, options);
      },
    },
  };
  return { store: dying, reads, steps: () => steps };
}

function keeperOn(store: EventStore, pageSize: number, writePages: number): SnapshotKeeper {
  return new SnapshotKeeper({
    store,
    book: TEST_SNAPSHOT_BOOK,
    every: 1_000,
    delayMs: 0,
    setTimer: () => {},
    pageSize,
    writePages,
  });
}

/**
 * The stored snapshot must be exactly what a build from the whole log up to its seq makes at once, and with the
 * log after it (at most a page: a longer one would have been built on) reduce to a replay of the whole log.
 */
async function expectStoredEqualsReplay(store: MemoryEventStore, log: readonly AgentEvent[], label: string) {
  const sessionId = log[0].sessionId;
  const lastSeq = log.at(-1)!.seq;
  const head = usableHead(JSON.parse(JSON.stringify(await store.snapshots.readHead(sessionId))), sessionId, lastSeq);
  expect(head, label).toBeDefined();
  const rows = usableRows(await store.snapshots.readTurns(sessionId, 0, head!.turnCount), sessionId)!;
  const covered = log.filter((event) => event.seq <= head!.snapshotSeq);
  const whole = advanceSnapshot(sessionId, undefined, covered, TEST_SNAPSHOT_BOOK)!;
  expect(JSON.parse(JSON.stringify(head)), label).toEqual(JSON.parse(JSON.stringify(whole.head)));
  expect(JSON.parse(JSON.stringify(rows)), label).toEqual(JSON.parse(JSON.stringify(whole.rows)));
  const resumed = reduceEvents(stateOfRows(head!, rows), log.slice(covered.length));
  const expected = meaningfulState(replayLog(sessionId, log));
  expect(firstDifference(expected, meaningfulState(resumed)), label).toBeUndefined();
  return head!;
}

describe('a snapshot built from the log a page at a time', () => {
  it('equals a build from the whole log at once, at several page sizes, and never reads more than a page', async () => {
    let builds = 0;
    for (let seed = 1; seed <= RUNS; seed++) {
      const log = await durableLogOf(seed);
      const sessionId = log[0].sessionId;
      for (const pageSize of PAGE_SIZES)
        for (const writePages of WRITE_PAGES) {
          const store = await storeOf(log);
          const { store: watched, reads } = dyingStore(store);
          await keeperOn(watched, pageSize, writePages).head(sessionId, log.at(-1)!.seq);
          const head = await expectStoredEqualsReplay(store, log, `seed ${seed} page ${pageSize} × ${writePages}`);
          expect(head.snapshotSeq).toBe(log.at(-1)!.seq);
          expect(reads.every((read) => read.limit !== undefined && read.limit <= pageSize)).toBe(true);
          builds++;
        }
    }
    console.log(`[property] paged builds: ${builds}`);
  });

  it('resumes from its last checkpoint after a kill at every page read and every snapshot write', async () => {
    let kills = 0;
    let resumedFromCheckpoint = 0;
    for (let seed = 1; seed <= KILL_RUNS; seed++) {
      const log = await durableLogOf(seed);
      const sessionId = log[0].sessionId;
      const lastSeq = log.at(-1)!.seq;
      const pageSize = 2 + (seed % 4);
      const writePages = 1 + (seed % 3);
      const uncut = dyingStore(await storeOf(log));
      await keeperOn(uncut.store, pageSize, writePages).head(sessionId, lastSeq);
      for (let killAt = 1; killAt <= uncut.steps(); killAt++) {
        const store = await storeOf(log);
        const dying = dyingStore(store, killAt);
        // A build cut short hands out no snapshot: its caller reads the log instead.
        await expect(keeperOn(dying.store, pageSize, writePages).head(sessionId, lastSeq)).resolves.toBeUndefined();
        expect(dying.steps(), 'the build reached the kill').toBeGreaterThanOrEqual(killAt);
        const checkpoint = usableHead(await store.snapshots.readHead(sessionId), sessionId, lastSeq);
        const restarted = dyingStore(store);
        await keeperOn(restarted.store, pageSize, writePages).head(sessionId, lastSeq);
        const label = `seed ${seed} kill at ${killAt}`;
        await expectStoredEqualsReplay(store, log, label);
        // The restarted build reads on from the checkpoint, not from the start of the log.
        if (checkpoint && lastSeq - checkpoint.snapshotSeq > pageSize) {
          expect(restarted.reads[0]?.afterSeq, label).toBe(checkpoint.snapshotSeq);
          resumedFromCheckpoint++;
        }
        kills++;
      }
    }
    console.log(`[property] kills during a build: ${kills}, resumed from a checkpoint: ${resumedFromCheckpoint}`);
    expect(resumedFromCheckpoint).toBeGreaterThan(kills / 4);
  });

  it('rebuilds a snapshot of another format from the log instead of building on it', async () => {
    const log = await durableLogOf(2);
    const sessionId = log[0].sessionId;
    const store = await storeOf(log);
    const stale = advanceSnapshot(sessionId, undefined, log.slice(0, 20), TEST_SNAPSHOT_BOOK)!;
    await store.snapshots.write({ ...stale.head, format: '0/1' } as never, stale.rows, { replace: true });
    const { store: watched, reads } = dyingStore(store);
    await keeperOn(watched, 4, 2).head(sessionId, log.at(-1)!.seq);
    expect(reads[0]?.afterSeq).toBe(0);
    expect((await expectStoredEqualsReplay(store, log, 'another format')).snapshotSeq).toBe(log.at(-1)!.seq);
  });
});
