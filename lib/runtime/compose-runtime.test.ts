import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { MemoryBlobStore } from '../files/memory-blob-store';
import type { PagePlatform } from '../page-tools/page-platform';
import type { JsonObject } from '../protocol/json-value';
import type { KeyValueStore } from '../storage/key-value-store';
import { composeRuntime } from './compose-runtime';
import type { StageCommandMessage } from '../protocol/runtime-message';
import { rewindableSession } from '../../tests/support/rewind-session';
import { countingIds, testRuntime } from '../../tests/support/test-runtime';
import { MemoryEventStore } from '../session-log/memory-event-store';
import type { RuntimePlatform } from './runtime-platform';

const manifest = JSON.parse(readFileSync(new URL('../../targets/particles/manifest.json', import.meta.url), 'utf8'));
const catalog = { targets: [{ manifest, entryPath: 'targets/particles/index.html' }], defaultTargetId: 'particles' };
const sessionId = 'session-1';

function memoryStorage(): KeyValueStore {
  const values = new Map<string, unknown>();
  return {
    get: async (key) => values.get(key),
    set: async (key, value) => void values.set(key, value),
    onChange: () => undefined,
  };
}

const unusedPagePlatform = new Proxy({} as PagePlatform, {
  get: () => () => Promise.reject(new Error('no page in this test')),
});

function setup(shared: { store?: MemoryEventStore; blobStore?: MemoryBlobStore; stageOpen?: boolean } = {}) {
  let ids = 0;
  const store = shared.store ?? new MemoryEventStore();
  const written: Record<string, JsonObject>[] = [];
  const timers: (() => void)[] = [];
  const platform: RuntimePlatform = {
    store,
    blobStore: shared.blobStore ?? new MemoryBlobStore(),
    storage: memoryStorage(),
    writeStorage: async (items) => void written.push(items),
    fetchBuiltInCatalog: async () => catalog,
    extensionUrl: (path) => `chrome-extension://splitbrain/${path}`,
    openStageTab: vi.fn(async () => undefined),
    stageTabIsOpen: async () => shared.stageOpen ?? false,
    openJobHost: vi.fn(async () => undefined),
    jobHostExists: async () => false,
    pagePlatform: unusedPagePlatform,
    notificationsPermitted: async () => false,
    showNotification: vi.fn(async () => undefined),
    onTargetState: vi.fn(),
    now: () => 1_000,
    newId: () => `id-${++ids}`,
    randomHex: () => '00'.repeat(16),
    sleep: async () => undefined,
    setTimer: (run) => void timers.push(run),
  };
  return { composed: composeRuntime(platform), platform, store, written };
}

function stagePort() {
  const listeners: ((message: unknown) => void)[] = [];
  return {
    port: {
      postMessage: vi.fn(),
      onMessage: (listener: (message: unknown) => void) => void listeners.push(listener),
      onDisconnect: () => undefined,
    },
    report: (message: unknown) => listeners.forEach((listener) => listener(message)),
  };
}

describe('composeRuntime', () => {
  it('answers requests from the built-in catalog and the event log of the platform it is given', async () => {
    const { composed, store } = setup();
    expect(await composed.handlers['targets/list']({ type: 'targets/list' })).toEqual({
      catalog,
      activeTargetId: undefined,
      values: null,
    });
    const turnStarted = {
      type: 'turn/started' as const,
      sessionId,
      turnId: 'turn-1',
      time: 1,
      data: { userItemId: 'user-1', text: 'Set the speed' },
    };
    expect(
      await composed.handlers['events/append']({
        type: 'events/append',
        sessionId,
        batchId: 'b',
        events: [turnStarted],
      }),
    ).toEqual({ lastSeq: 1 });
    expect(await store.lastSeq(sessionId)).toBe(1);
  });

  it('remembers the state the stage’s target reports, tells the platform, and writes it when flushed', async () => {
    const { composed, platform, written } = setup();
    const stage = stagePort();
    composed.stage.attach(stage.port);
    stage.report({ type: 'stage/hello', activeTargetId: 'particles', startedAt: 1 });
    stage.report({ type: 'stage/target-state', targetId: 'particles', state: { speed: 3 } });
    expect(platform.onTargetState).toHaveBeenCalledWith('particles', { speed: 3 });
    expect(await composed.handlers['targets/list']({ type: 'targets/list' })).toMatchObject({
      activeTargetId: 'particles',
      values: { speed: 3 },
    });
    await composed.values.flush();
    expect(written).toEqual([{ 'targetValues:particles': { speed: 3 } }]);
  });

  it('finishes, after a restart, a rewind whose stage effects were cut off: the shown target reopened over its conversation, the values applied and written', async () => {
    const store = new MemoryEventStore();
    const blobStore = new MemoryBlobStore();
    // A worker with no stage records the rewind and its restored version, and is stopped before anything else.
    const stopped = testRuntime({ store, blobStore, newId: countingIds('before-') });
    const orbit = await rewindableSession(stopped, sessionId);
    await stopped.rewindSession(sessionId, 'b', 'versions', 'rewind-1');

    const { composed, written } = setup({ store, blobStore, stageOpen: true });
    const stage = stagePort();
    const commands: StageCommandMessage[] = [];
    stage.port.postMessage.mockImplementation((message: StageCommandMessage) => {
      commands.push(message);
      if (message.type === 'stage/open') stage.report({ type: 'stage/state', jobId: message.jobId, state: {} });
      if (message.type === 'stage/send')
        stage.report({ type: 'stage/state', jobId: message.jobId, state: { radius: 90, speed: 30 } });
    });
    composed.stage.attach(stage.port);
    stage.report({ type: 'stage/hello', activeTargetId: orbit, startedAt: 1 });
    (await composed.runtime.subscribe(sessionId, () => undefined)).unsubscribe();
    await vi.waitFor(async () =>
      expect((await store.read(sessionId, 0)).filter((event) => event.type === 'rewind/completed')).toHaveLength(1),
    );

    const opened = commands.find((command) => command.type === 'stage/open');
    expect(opened).toMatchObject({ targetId: orbit, artifact: { version: 3 } });
    expect(commands.find((command) => command.type === 'stage/send')).toMatchObject({
      targetId: orbit,
      message: { type: 'apply', payload: { radius: 90 } },
    });
    expect((await store.read(sessionId, 0)).at(-1)).toMatchObject({
      type: 'rewind/completed',
      data: { rewindId: 'rewind-1', reloaded: [orbit], applied: [orbit], saved: ['particles'] },
    });
    expect(Object.assign({}, ...written)).toMatchObject({
      'targetValues:particles': { speed: 12 },
      [`targetValues:${orbit}`]: { radius: 90, speed: 30 },
    });
  });
});
