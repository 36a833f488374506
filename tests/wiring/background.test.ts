import { fakeBrowser } from 'wxt/testing/fake-browser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AgentEventDraft } from '@/lib/protocol/agent-event';
import type { PublisherMessage } from '@/lib/protocol/runtime-message';

vi.mock('webextension-polyfill', () => ({ default: fakeBrowser }));

const ownPage = { id: fakeBrowser.runtime.id, url: fakeBrowser.runtime.getURL('/sidepanel.html') };
const manifest = {
  id: 'particles',
  title: 'Particle field',
  description: 'Particles.',
  entry: 'index.html',
  params: { settings: { speed: { type: 'number', value: 8 } } },
};
const catalog = { targets: [{ manifest, entryPath: 'targets/particles/index.html' }], defaultTargetId: 'particles' };
const sessionId = 'session-1';
const turnStarted: AgentEventDraft = {
  type: 'turn/started',
  sessionId,
  turnId: 'turn-1',
  time: 1,
  data: { userItemId: 'user-1', text: 'Set the speed' },
};

type ConnectListener = (port: ReturnType<typeof fakePort>['port']) => void;
let connect: ConnectListener = () => undefined;

/** The answer the background's onMessage listener gives, as the sending page would receive it. */
async function send(message: unknown, sender: { id?: string; url?: string } = ownPage): Promise<unknown> {
  const answers: unknown[] = await fakeBrowser.runtime.onMessage.trigger(message, sender);
  return answers.find((answer) => answer !== undefined);
}

function fakePort(name: string, sender: { id?: string; url?: string } = ownPage) {
  const sent: PublisherMessage[] = [];
  const messageListeners: ((message: unknown) => void)[] = [];
  const port = {
    name,
    sender,
    postMessage: (message: PublisherMessage) => void sent.push(message),
    disconnect: vi.fn(),
    onMessage: { addListener: (listener: (message: unknown) => void) => void messageListeners.push(listener) },
    onDisconnect: { addListener: vi.fn() },
  };
  return { port, sent, receive: (message: unknown) => messageListeners.forEach((listener) => listener(message)) };
}

// Unit files share their workers' globals (the unit project does not isolate files): leave them as they were.
afterAll(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

beforeAll(async () => {
  // The log in memory: this test is about the wiring, not about IndexedDB.
  vi.stubEnv('WXT_MEMORY_EVENT_LOG', '1');
  vi.stubGlobal('fetch', async () => new Response(JSON.stringify(catalog)));
  vi.stubGlobal('chrome', {
    commands: { onCommand: { addListener: vi.fn() } },
    runtime: { getContexts: async () => [] },
  });
  // fakeBrowser has no ports; the test opens them itself.
  vi.spyOn(fakeBrowser.runtime.onConnect, 'addListener').mockImplementation((listener) => {
    connect = listener as unknown as ConnectListener;
  });
  const background = await import('@/entrypoints/background');
  background.default.main();
});

describe('background wiring', () => {
  it('routes a runtime request from its own page to its handler and answers { ok: true, result }', async () => {
    expect(await send({ type: 'events/append', sessionId, batchId: 'batch-1', events: [turnStarted] })).toEqual({
      ok: true,
      result: { lastSeq: 1 },
    });
    expect(await send({ type: 'sessions/list' })).toMatchObject({
      ok: true,
      result: { sessions: [{ sessionId, lastSeq: 1 }] },
    });
    expect(await send({ type: 'targets/list' })).toEqual({
      ok: true,
      result: { catalog, activeTargetId: undefined, values: null },
    });
  });

  it('reads the log a page at a time when asked for a limit, and refuses a page over the largest', async () => {
    const paged = 'session-paged';
    const notice = (index: number) => ({
      type: 'notification',
      sessionId: paged,
      notificationId: `notice-${index}`,
      time: 2,
      data: { level: 'info', message: `Notice ${index}` },
    });
    await send({ type: 'events/append', sessionId: paged, batchId: 'batch-paged', events: [1, 2, 3].map(notice) });
    const page = (await send({ type: 'events/read', sessionId: paged, afterSeq: 1, limit: 2 })) as {
      result: { events: { seq: number }[] };
    };
    expect(page.result.events.map((event) => event.seq)).toEqual([2, 3]);
    expect(await send({ type: 'events/read', sessionId: paged, afterSeq: 0, limit: 10_001 })).toEqual({
      ok: false,
      error: expect.stringMatching(/^Invalid runtime request: /),
    });
  });

  it('ignores a request from a sender that is not one of its pages', async () => {
    expect(await send({ type: 'sessions/list' }, { id: 'another-extension', url: ownPage.url })).toBeUndefined();
    expect(await send({ type: 'sessions/list' }, { id: ownPage.id, url: 'https://example.org/' })).toBeUndefined();
  });

  it('answers an invalid request with what is wrong', async () => {
    expect(await send({ type: 'events/explode' })).toEqual({
      ok: false,
      error: expect.stringMatching(/^Invalid runtime request: /),
    });
  });

  it('answers a failing handler with its error', async () => {
    const forged = { type: 'tool/unknown', sessionId, turnId: 'turn-1', toolCallId: 'c', time: 2, data: {} };
    expect(await send({ type: 'events/append', sessionId, batchId: 'batch-2', events: [forged] })).toEqual({
      ok: false,
      error: 'Only the runtime records tool/unknown events.',
    });
  });

  it('serves the events port of its own page and disconnects a foreign one', async () => {
    const panel = fakePort('events');
    connect(panel.port);
    panel.receive({ type: 'events/subscribe', sessionId, generation: 2 });
    await vi.waitFor(() =>
      expect(panel.sent[0]).toMatchObject({ type: 'events/snapshot', generation: 2, snapshotSeq: 1 }),
    );
    const foreign = fakePort('events', { id: 'another-extension', url: 'https://example.org/' });
    connect(foreign.port);
    expect(foreign.port.disconnect).toHaveBeenCalled();
  });
});
