import { describe, expect, it, vi } from 'vitest';
import type { AgentEvent, AgentEventDraft, AgentEventOf } from '../protocol/agent-event';
import { MemoryBlobStore } from '../files/memory-blob-store';
import { MemoryEventStore } from '../session-log/memory-event-store';
import { RewindStageWorld } from '../../tests/support/rewind-stage-world';
import { rewindableSession } from '../../tests/support/rewind-session';
import type { Runtime } from './runtime';
import type { JsonValue } from '../protocol/json-value';
import { activeTurnOrder } from '../state/branch-tree';
import { replayLog } from '../state/reduce-events';
import { countingIds, testRuntime } from '../../tests/support/test-runtime';

const sessionId = 'rewound';
const sha = 'b'.repeat(64);
const ref = { blobId: sha, sha256: sha, mime: 'text/plain', size: 1, name: 'part' };
/** Each version's own parts (its html named after it). */
const partsOf = (number: number) => ({ manifest: ref, html: { ...ref, name: `index-${number}.html` }, script: ref });

function turn(turnId: string, speed: number): AgentEventDraft[] {
  const toolCallId = `${turnId}-set`;
  const output: JsonValue = { ok: true, targetId: 'particles', applied: { speed } };
  return [
    { type: 'turn/started', sessionId, turnId, time: 2, data: { userItemId: `user-${turnId}`, text: `${speed}` } },
    {
      type: 'tool/requested',
      sessionId,
      turnId,
      stepId: `step-${turnId}`,
      toolCallId,
      time: 2,
      data: { toolName: 'setParameter', input: { param: 'speed', value: speed } },
    },
    { type: 'tool/started', sessionId, turnId, toolCallId, time: 2, data: {} },
    { type: 'tool/completed', sessionId, turnId, toolCallId, time: 2, data: { output, durationMs: 1 } },
    { type: 'turn/completed', sessionId, turnId, time: 3, data: { reason: 'stop' } },
  ];
}

function version(artifactId: string, number: number): AgentEventDraft[] {
  const ids = { sessionId, artifactId, time: 2 };
  return [
    {
      type: 'artifact/created',
      ...ids,
      data: { kind: 'html-app', version: number, state: 'draft', parts: partsOf(number) },
    },
    { type: 'artifact/ready', ...ids, data: { version: number, state: 'ready', requested: [] } },
    ...(number > 1
      ? [
          {
            type: 'artifact/superseded',
            ...ids,
            data: { version: number - 1, state: 'superseded', by: number },
          } as const,
        ]
      : []),
  ];
}

async function setup() {
  const runtime = testRuntime();
  await runtime.append(sessionId, [
    { type: 'session/created', sessionId, time: 1, data: { title: 'Speeds' } },
    ...turn('a', 12),
    ...version('made-here', 1),
    ...turn('b', 30),
    ...version('made-here', 2),
  ]);
  return runtime;
}

describe('Runtime.rewindSession', () => {
  it('records the rewind, and in mode versions makes the version of then current as a new one', async () => {
    const runtime = await setup();
    const preview = await runtime.rewindPreview(sessionId, 'b');
    expect(preview.values).toEqual([{ targetId: 'particles', values: { speed: 12 } }]);
    expect(preview.versions).toEqual([{ artifactId: 'made-here', version: 1, current: 2 }]);

    const result = await runtime.rewindSession(sessionId, 'b', 'versions', 'rewind-1');
    expect(result).toEqual({
      values: [{ targetId: 'particles', values: { speed: 12 } }],
      versions: [{ artifactId: 'made-here', restoredFrom: 1, version: 3 }],
    });
    const log = await runtime.read(sessionId, 0);
    const rewind = log.find((event) => event.type === 'rewind/applied');
    expect(rewind).toMatchObject({
      turnId: 'b',
      data: {
        mode: 'versions',
        rewindId: 'rewind-1',
        parentTurnId: 'a',
        fromLeaf: 'b',
        versions: [{ artifactId: 'made-here', version: 1, restoredAs: 3 }],
      },
    });
    expect(log.filter((event) => event.type === 'artifact/created').at(-1)).toMatchObject({
      data: { version: 3, restoredFrom: 1, baseVersion: 2 },
    });
    const state = replayLog(sessionId, log);
    expect(activeTurnOrder(state)).toEqual(['a']);
    expect(state.turnOrder).toEqual(['a', 'b']);
    // Rewinding again to the same point makes no fourth version: the current one has the parts of then.
    expect((await runtime.rewindPreview(sessionId, 'b')).versions).toEqual([]);
  });

  it('changes no target or version in mode conversation, and refuses a turn it does not know', async () => {
    const runtime = await setup();
    expect(await runtime.rewindSession(sessionId, 'b', 'conversation', 'rewind-1')).toEqual({
      values: [],
      versions: [],
    });
    const log = await runtime.read(sessionId, 0);
    expect(log.filter((event) => event.type === 'artifact/created')).toHaveLength(2);
    await expect(runtime.rewindSession(sessionId, 'nope', 'values', 'rewind-2')).rejects.toThrow('no turn nope');
  });
});

describe("a rewind's effects outside the log", () => {
  const session = 'effects';

  /** A runtime over `store` whose stage is `world`'s; `failing` makes the stage refuse every command. */
  const newId = countingIds('id-');

  function runtimeOn(store: MemoryEventStore, blobs: MemoryBlobStore, world: RewindStageWorld, failing = false) {
    const runtime: Runtime = testRuntime({
      store,
      blobStore: blobs,
      newId,
      rewindStage: world.stageFor(
        () => runtime,
        session,
        failing
          ? () => {
              throw new Error('The stage did not answer.');
            }
          : undefined,
      ),
    });
    return runtime;
  }

  async function setupEffects(shown: 'orbit' | 'particles' | undefined) {
    const store = new MemoryEventStore();
    const blobs = new MemoryBlobStore();
    const world = new RewindStageWorld();
    const runtime = runtimeOn(store, blobs, world);
    const orbit = await rewindableSession(runtime, session);
    if (shown === 'orbit') world.shown = { targetId: orbit, version: 2, values: { radius: 50 } };
    if (shown === 'particles') world.shown = { targetId: 'particles', values: { speed: 30 } };
    return { store, blobs, world, runtime, orbit };
  }

  const ofType = <TType extends AgentEvent['type']>(events: AgentEvent[], type: TType) =>
    events.filter((event): event is AgentEventOf<TType> => event.type === type);

  it("records the restored version in the rewind's own commit, reloads the shown target, puts the values back, then says so", async () => {
    const { runtime, world, orbit } = await setupEffects('orbit');
    const result = await runtime.rewindSession(session, 'b', 'versions', 'rewind-1');
    expect(result).toEqual({
      values: [
        { targetId: 'particles', values: { speed: 12 } },
        { targetId: orbit, values: { radius: 90 } },
      ],
      versions: [{ artifactId: orbit, restoredFrom: 1, version: 3 }],
    });
    const log = await runtime.read(session, 0);
    const [rewind] = ofType(log, 'rewind/applied');
    const restored = ofType(log, 'artifact/created').find((event) => event.data.restoredFrom === 1)!;
    // One commit: the restore's events follow the rewind's at once.
    expect(restored.seq).toBe(rewind!.seq + 1);
    expect(restored.data).toMatchObject({ version: 3, baseVersion: 2 });
    expect(ofType(log, 'rewind/completed').map((event) => event.data)).toEqual([
      { rewindId: 'rewind-1', reloaded: [orbit], applied: [orbit], saved: ['particles'] },
    ]);
    expect(world.view()).toEqual({
      shown: { targetId: orbit, version: 3, values: { radius: 90 } },
      saved: { particles: { speed: 12 }, [orbit]: { radius: 90 } },
    });
  });

  it('is one rewind however often its request comes: the same rewindId is answered from the log', async () => {
    const { runtime, world, orbit } = await setupEffects('particles');
    const first = await runtime.rewindSession(session, 'b', 'versions', 'rewind-1');
    expect(await runtime.rewindSession(session, 'b', 'versions', 'rewind-1')).toEqual(first);
    const log = await runtime.read(session, 0);
    expect(ofType(log, 'rewind/applied')).toHaveLength(1);
    expect(ofType(log, 'rewind/completed')).toHaveLength(1);
    expect(ofType(log, 'artifact/created').filter((event) => event.artifactId === orbit)).toHaveLength(3);
    expect(world.applies).toBe(1);
  });

  it('a stage that fails leaves the rewind recorded and pending, said in unfinished; opening the conversation completes it', async () => {
    const { store, blobs, world, orbit } = await setupEffects('particles');
    const broken = runtimeOn(store, blobs, world, true);
    const result = await broken.rewindSession(session, 'b', 'values', 'rewind-1');
    expect(result.unfinished).toBe('The stage did not answer.');
    expect(ofType(await store.read(session, 0), 'rewind/completed')).toHaveLength(0);
    expect(world.shown?.values).toEqual({ speed: 30 });

    const mended = runtimeOn(store, blobs, world);
    (await mended.subscribe(session, () => undefined)).unsubscribe();
    await vi.waitFor(async () => expect(ofType(await store.read(session, 0), 'rewind/completed')).toHaveLength(1));
    expect(world.view()).toEqual({
      shown: { targetId: 'particles', values: { speed: 12 } },
      saved: { particles: { speed: 12 }, [orbit]: { radius: 90 } },
    });
  });

  it('late, after a restart, does not put back a value the log changed after the rewind', async () => {
    const { store, blobs, world, orbit } = await setupEffects('particles');
    const broken = runtimeOn(store, blobs, world, true);
    await broken.rewindSession(session, 'b', 'values', 'rewind-1');
    // A new message after the rewind sets the speed again before the stage was reached.
    await broken.append(session, [
      { type: 'turn/started', sessionId: session, turnId: 'd', time: 4, data: { userItemId: 'user-d', text: 'd' } },
      {
        type: 'tool/requested',
        sessionId: session,
        turnId: 'd',
        stepId: 'step-d',
        toolCallId: 'd-set',
        time: 4,
        data: { toolName: 'setParameter', input: { param: 'speed', value: 44 } },
      },
      { type: 'tool/started', sessionId: session, turnId: 'd', toolCallId: 'd-set', time: 4, data: {} },
      {
        type: 'tool/completed',
        sessionId: session,
        turnId: 'd',
        toolCallId: 'd-set',
        time: 4,
        data: { output: { ok: true, targetId: 'particles', applied: { speed: 44 } }, durationMs: 1 },
      },
      { type: 'turn/completed', sessionId: session, turnId: 'd', time: 5, data: { reason: 'stop' } },
    ]);
    world.shown = { targetId: 'particles', values: { speed: 44 } };
    const restarted = runtimeOn(store, blobs, world);
    await restarted.read(session, 0);
    (await restarted.subscribe(session, () => undefined)).unsubscribe();
    await vi.waitFor(async () => expect(ofType(await store.read(session, 0), 'rewind/completed')).toHaveLength(1));
    expect(world.view()).toEqual({
      shown: { targetId: 'particles', values: { speed: 44 } },
      saved: { [orbit]: { radius: 90 } },
    });
  });

  it('never completes a rewind an older build recorded (no rewindId): nothing says whether its effects happened', async () => {
    const { store, blobs, world, runtime } = await setupEffects('particles');
    await runtime.append(session, [
      {
        type: 'rewind/applied',
        sessionId: session,
        turnId: 'b',
        time: 4,
        data: {
          mode: 'values',
          parentTurnId: 'a',
          fromLeaf: 'b',
          values: [{ targetId: 'particles', values: { speed: 12 } }],
          versions: [],
        },
      },
    ]);
    const restarted = runtimeOn(store, blobs, world);
    (await restarted.subscribe(session, () => undefined)).unsubscribe();
    // A session's rewinds complete in order: by the end of a new one, an older one pending would have been done.
    await restarted.rewindSession(session, 'b', 'values', 'rewind-2');
    expect(ofType(await store.read(session, 0), 'rewind/completed').map((event) => event.data.rewindId)).toEqual([
      'rewind-2',
    ]);
    expect(world.applies).toBe(1);
  });
});
