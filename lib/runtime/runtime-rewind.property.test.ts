import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { MemoryBlobStore } from '../files/memory-blob-store';
import type { AgentEvent, AgentEventOf } from '../protocol/agent-event';
import type { RewindMode } from '../protocol/rewind-events';
import type { EventStore } from '../session-log/event-store';
import { MemoryEventStore } from '../session-log/memory-event-store';
import { rewindableSession } from '../../tests/support/rewind-session';
import { RewindStageWorld, type ShownTarget } from '../../tests/support/rewind-stage-world';
import { countingIds, testRuntime } from '../../tests/support/test-runtime';
import type { Runtime } from './runtime';

const sessionId = 'rewound';
const rewindId = 'rewind-1';
const SCENARIOS = 24;

/** A worker that stops at its `killAt`-th step (0: never): a step before and after each log write and stage effect. */
class Worker {
  private steps = 0;
  private dead = false;

  constructor(private readonly killAt: number) {}

  step = (): void => {
    if (this.dead) throw new Error('The worker was stopped.');
    this.steps += 1;
    if (this.killAt > 0 && this.steps >= this.killAt) {
      this.dead = true;
      throw new Error('The worker was stopped.');
    }
  };

  /** Nothing the stopped worker asks of the store happens. */
  alive = (): void => {
    if (this.dead) throw new Error('The worker was stopped.');
  };

  count(): number {
    return this.steps;
  }

  store(store: MemoryEventStore): EventStore {
    const alive = <T>(run: () => Promise<T>) => {
      this.alive();
      return run();
    };
    return {
      lastSeq: (id) => alive(() => store.lastSeq(id)),
      append: async (id, events, batchId) => {
        this.step();
        await store.append(id, events, batchId);
        this.step();
      },
      lastBatchId: (id) => alive(() => store.lastBatchId(id)),
      read: (id, afterSeq, limit) => alive(() => store.read(id, afterSeq, limit)),
      readToolCall: (id, toolCallId) => alive(() => store.readToolCall(id, toolCallId)),
      listSessions: () => alive(() => store.listSessions()),
      deleteSession: (id) => alive(() => store.deleteSession(id)),
    };
  }
}

interface Scenario {
  third: boolean;
  toLast: boolean;
  mode: RewindMode;
  shown: 'none' | 'particles' | 'authored';
  afterRestart: 'resend' | 'open' | 'resend-and-open';
}

const scenarioArbitrary: fc.Arbitrary<Scenario> = fc.record({
  third: fc.boolean(),
  toLast: fc.boolean(),
  mode: fc.constantFrom<RewindMode>('conversation', 'values', 'versions'),
  shown: fc.constantFrom('none' as const, 'particles' as const, 'authored' as const),
  afterRestart: fc.constantFrom('resend' as const, 'open' as const, 'resend-and-open' as const),
});

async function copyOf(store: MemoryEventStore): Promise<MemoryEventStore> {
  const copy = new MemoryEventStore();
  await copy.append(sessionId, await store.read(sessionId, 0));
  return copy;
}

const ofType = <TType extends AgentEvent['type']>(events: AgentEvent[], type: TType) =>
  events.filter((event): event is AgentEventOf<TType> => event.type === type);

describe('a rewind with the worker stopped at every step of it', () => {
  it('is recorded at most once, restores each version once, and a restarted runtime completes its effects once', async () => {
    let kills = 0;
    let completedLate = 0;
    let neverRecorded = 0;
    const newId = countingIds('id-');
    await fc.assert(
      fc.asyncProperty(scenarioArbitrary, async (scenario) => {
        const blobs = new MemoryBlobStore();
        const base = new MemoryEventStore();
        const targetId = await rewindableSession(
          testRuntime({ store: base, blobStore: blobs, newId }),
          sessionId,
          scenario.third,
        );
        const turnId = scenario.third && scenario.toLast ? 'c' : 'b';
        const currentVersion = scenario.third ? 3 : 2;
        const now: ShownTarget | undefined =
          scenario.shown === 'particles'
            ? { targetId: 'particles', values: { speed: scenario.third ? 40 : 30 } }
            : scenario.shown === 'authored'
              ? { targetId, version: currentVersion, values: { radius: scenario.third ? 20 : 50 } }
              : undefined;
        const savedNow: [string, { speed?: number; radius?: number }][] = [
          ['particles', { speed: scenario.third ? 40 : 30 }],
          [targetId, { radius: scenario.third ? 20 : 50 }],
        ];
        const baseLength = (await base.read(sessionId, 0)).length;

        /** A runtime on this store and stage whose every write and stage effect is a step of `worker`. */
        const runtimeOf = (store: EventStore, world: RewindStageWorld, worker?: Worker, snapshots = false) => {
          const runtime: Runtime = testRuntime({
            store,
            blobStore: blobs,
            newId,
            rewindStage: world.stageFor(() => runtime, sessionId, worker?.step),
            ...(snapshots ? { snapshots: { every: 1_000, delayMs: 0, setTimer: () => undefined } } : {}),
          });
          return runtime;
        };

        // The run no worker stop cuts: what every cut run must end as, and how many steps it has.
        const uncutStore = await copyOf(base);
        const uncutWorld = new RewindStageWorld(now, savedNow);
        const uncutWorker = new Worker(0);
        await runtimeOf(uncutWorker.store(uncutStore), uncutWorld, uncutWorker).rewindSession(
          sessionId,
          turnId,
          scenario.mode,
          rewindId,
        );
        const uncutLog = await uncutStore.read(sessionId, 0);
        const uncutTypes = uncutLog.slice(baseLength).map((event) => event.type);
        expect(uncutTypes[0]).toBe('rewind/applied');

        for (let killAt = 1; killAt <= uncutWorker.count(); killAt++) {
          const label = `${JSON.stringify(scenario)} stopped at step ${killAt} of ${uncutWorker.count()}`;
          const store = await copyOf(base);
          const world = new RewindStageWorld(now, savedNow);
          const worker = new Worker(killAt);
          await runtimeOf(worker.store(store), world, worker)
            .rewindSession(sessionId, turnId, scenario.mode, rewindId)
            .catch(() => undefined);
          kills += 1;
          const recordedBeforeRestart = ofType(await store.read(sessionId, 0), 'rewind/applied').length;

          // The worker starts again: from a snapshot of the log as the stopped one left it.
          const restarted = runtimeOf(store, world, undefined, true);
          if (scenario.afterRestart !== 'open')
            await restarted.rewindSession(sessionId, turnId, scenario.mode, rewindId);
          if (scenario.afterRestart !== 'resend') (await restarted.subscribe(sessionId, () => undefined)).unsubscribe();
          const recorded = recordedBeforeRestart > 0 || scenario.afterRestart !== 'open';
          if (recorded && uncutTypes.includes('rewind/completed'))
            await vi.waitFor(async () =>
              expect(ofType(await store.read(sessionId, 0), 'rewind/completed'), label).toHaveLength(1),
            );

          const log = await store.read(sessionId, 0);
          const rewinds = ofType(log, 'rewind/applied');
          expect(rewinds.length, label).toBe(recorded ? 1 : 0);
          if (!recorded) {
            // Stopped before its first write and never sent again: nothing happened, in the log or on the stage.
            expect(log.length, label).toBe(baseLength);
            expect(world.view(), label).toEqual(new RewindStageWorld(now, savedNow).view());
            neverRecorded += 1;
            continue;
          }
          // The same events as the uncut run, each once, in the same order: no version restored twice or lost.
          expect(
            log.slice(baseLength).map((event) => event.type),
            label,
          ).toEqual(uncutTypes);
          expect(
            ofType(log, 'artifact/created').map((event) => event.data.version),
            label,
          ).toEqual(ofType(uncutLog, 'artifact/created').map((event) => event.data.version));
          expect(ofType(log, 'rewind/completed').map((event) => event.data)).toEqual(
            ofType(uncutLog, 'rewind/completed').map((event) => event.data),
          );
          // The stage shows what it shows after the uncut run, and the saved values are the same.
          expect(world.view(), label).toEqual(uncutWorld.view());
          if (recordedBeforeRestart > 0 && uncutTypes.includes('rewind/completed')) completedLate += 1;
        }
      }),
      { numRuns: SCENARIOS, seed: 30 },
    );
    console.log(
      `[property] rewinds stopped at every step: scenarios=${SCENARIOS} kills=${kills} completed after a restart=${completedLate} never recorded=${neverRecorded}`,
    );
    expect(completedLate).toBeGreaterThan(0);
  }, 60_000);
});
