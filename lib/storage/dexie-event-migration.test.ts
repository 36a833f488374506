import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it, vi } from 'vitest';
import { AGENT_EVENT_SCHEMA_VERSION, type AgentEvent } from '../protocol/agent-event';
import v1Fixture from '../protocol/fixtures/v1-rows.json';
import v7Fixture from '../protocol/fixtures/v7-rows.json';
import { MemoryBlobStore } from '../files/memory-blob-store';
import type { Runtime } from '../runtime/runtime';
import { RewindStageWorld } from '../../tests/support/rewind-stage-world';
import type { SessionRecord } from '../protocol/session-record';
import { replayLog } from '../state/reduce-events';
import { meaningfulState } from '../../tests/support/meaningful-state';
import { countingIds, testRuntime } from '../../tests/support/test-runtime';
import { DexieEventStore, openSplitbrainDatabase, StoredRowError } from './dexie-event-store';

const sessionId = 'fixture-session';

/** A fake IndexedDB holding the frozen version 1 log as an older build stored it; `open` opens it as a (re)started worker would. */
async function v1Database() {
  const indexedDB = new IDBFactory();
  const open = () => openSplitbrainDatabase('splitbrain-migration-test', { indexedDB, IDBKeyRange });
  const database = open();
  await database.sessions.bulkAdd(v1Fixture.sessions as SessionRecord[]);
  await database.events.bulkAdd(structuredClone(v1Fixture.events));
  return { database, open };
}

const storedVersions = async (database: ReturnType<typeof openSplitbrainDatabase>) =>
  (await database.events.toArray()).map((row) => (row.event as { schemaVersion: number }).schemaVersion);

const v1Events = v1Fixture.events.map((row) => row.event) as unknown as AgentEvent[];

describe('DexieEventStore with a version 1 log', () => {
  it('opens it migrated, reducing to the same state, and stores the rows in the new form', async () => {
    const { database, open } = await v1Database();
    const store = new DexieEventStore(database);
    const events = await store.read(sessionId, 0);
    expect(events).toEqual(v1Events.map((event) => ({ ...event, schemaVersion: AGENT_EVENT_SCHEMA_VERSION })));
    expect(meaningfulState(replayLog(sessionId, events))).toEqual(meaningfulState(replayLog(sessionId, v1Events)));
    await store.upgradesStored();
    const reopened = open();
    expect(await storedVersions(reopened)).toEqual(v1Events.map(() => AGENT_EVENT_SCHEMA_VERSION));
    const rows = await reopened.events.toArray();
    expect(rows.map(({ event: _event, ...keys }) => keys)).toEqual(
      v1Fixture.events.map(({ event: _event, ...keys }) => keys),
    );
    expect(await new DexieEventStore(reopened).read(sessionId, 0)).toEqual(events);
    expect(await new DexieEventStore(reopened).listSessions()).toEqual(v1Fixture.sessions);
  });

  it('upgrades the rows a tool call lookup reads as well', async () => {
    const { database, open } = await v1Database();
    const store = new DexieEventStore(database);
    const call = await store.readToolCall(sessionId, 'call-1');
    expect(call.map((event) => [event.type, event.schemaVersion])).toEqual([
      ['tool/requested', AGENT_EVENT_SCHEMA_VERSION],
      ['tool/started', AGENT_EVENT_SCHEMA_VERSION],
      ['tool/completed', AGENT_EVENT_SCHEMA_VERSION],
    ]);
    await store.upgradesStored();
    const versions = await storedVersions(open());
    expect(versions.filter((version) => version === AGENT_EVENT_SCHEMA_VERSION)).toHaveLength(3);
    expect(versions.filter((version) => version === 1)).toHaveLength(v1Events.length - 3);
  });

  it('lets a restarted runtime continue the seq and replay recorded outcomes from the migrated rows', async () => {
    const { database, open } = await v1Database();
    const executeTool = vi.fn(async () => ({ ok: true }));
    const runtime = testRuntime({ store: new DexieEventStore(database), executeTool, now: () => 5, newId: () => 'id' });
    const replayed = await runtime.executeTool({
      sessionId,
      turnId: 'turn-1',
      stepId: 'turn-1-step-1',
      toolCallId: 'call-1',
      toolName: 'setParameter',
      input: { param: 'speed', value: 12 },
    });
    expect(replayed).toMatchObject({ status: 'completed', replayed: true });
    expect(executeTool).not.toHaveBeenCalled();
    expect(
      await runtime.append(sessionId, [{ type: 'session/renamed', sessionId, time: 6, data: { title: 'Renamed' } }]),
    ).toBe(62);
    const restarted = testRuntime({ store: new DexieEventStore(open()), executeTool, now: () => 7, newId: () => 'id' });
    expect(
      await restarted.append(sessionId, [{ type: 'session/renamed', sessionId, time: 8, data: { title: 'Again' } }]),
    ).toBe(63);
    const events = await new DexieEventStore(open()).read(sessionId, 0);
    expect(events.map((event) => event.seq)).toEqual(Array.from({ length: 63 }, (_, index) => index + 1));
    expect(events.every((event) => event.schemaVersion === AGENT_EVENT_SCHEMA_VERSION)).toBe(true);
  });

  it('refuses a log holding a row newer than this code, naming it, and never rewrites that row', async () => {
    const { database, open } = await v1Database();
    const newer = {
      ...v1Fixture.events[1],
      event: { ...v1Fixture.events[1]!.event, schemaVersion: AGENT_EVENT_SCHEMA_VERSION + 1, data: { future: true } },
    };
    await database.events.put(newer);
    const store = new DexieEventStore(database);
    await expect(store.read(sessionId, 0)).rejects.toBeInstanceOf(StoredRowError);
    await expect(store.read(sessionId, 0)).rejects.toThrow(/fixture-session#2 .*newer version of Splitbrain/);
    const runtime = testRuntime({ store, now: () => 5, newId: () => 'id' });
    await expect(
      runtime.append(sessionId, [{ type: 'session/renamed', sessionId, time: 6, data: { title: 'Lost?' } }]),
    ).rejects.toThrow(/newer version/);
    expect(await store.read(sessionId, 2)).toHaveLength(v1Events.length - 2);
    await store.upgradesStored();
    const reopened = open();
    expect(await reopened.events.get([sessionId, 2])).toEqual(newer);
    expect(await reopened.events.count()).toBe(v1Events.length);
  });
});

describe('DexieEventStore with a version 7 log that holds a rewind', () => {
  it('opens it in a runtime that completes nothing of the old rewind: it names no rewind, so nothing says its effects are owed', async () => {
    const indexedDB = new IDBFactory();
    const database = openSplitbrainDatabase('splitbrain-v7-test', { indexedDB, IDBKeyRange });
    await database.sessions.bulkAdd(v7Fixture.sessions as SessionRecord[]);
    await database.events.bulkAdd(structuredClone(v7Fixture.events));
    const store = new DexieEventStore(database);
    const world = new RewindStageWorld({ targetId: 'particles', values: { speed: 30 } });
    const runtime: Runtime = testRuntime({
      store,
      blobStore: new MemoryBlobStore(),
      newId: countingIds('v8-'),
      rewindStage: world.stageFor(() => runtime, 'fixture-v7'),
    });
    (await runtime.subscribe('fixture-v7', () => undefined)).unsubscribe();
    // A new rewind completes after any older one pending in the same session: by its end, none was.
    const result = await runtime.rewindSession('fixture-v7', 'b', 'values', 'rewind-new');
    expect(result.unfinished).toBeUndefined();
    const events = await store.read('fixture-v7', 0);
    expect(events.filter((event) => event.type === 'rewind/completed').map((event) => event.data)).toEqual([
      { rewindId: 'rewind-new', reloaded: [], applied: ['particles'], saved: ['orbit-sketch-v71'] },
    ]);
    expect(events.slice(0, v7Fixture.events.length).map((event) => event.schemaVersion)).toEqual(
      v7Fixture.events.map(() => AGENT_EVENT_SCHEMA_VERSION),
    );
    expect(world.applies).toBe(1);
  });
});
