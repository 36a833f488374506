import { describe, expect, it } from 'vitest';
import type { AgentEventDraft } from '../protocol/agent-event';
import type { PublisherMessage } from '../protocol/runtime-message';
import { testRuntime } from '../../tests/support/test-runtime';
import type { Runtime } from './runtime';
import { attachSubscriber, type SubscriberPort } from './subscriber-session';

const sessionId = 'session-1';
const turnStarted = (turnId: string): AgentEventDraft => ({
  type: 'turn/started',
  sessionId,
  turnId,
  time: 1,
  data: { userItemId: `user-${turnId}`, text: 'Set the speed' },
});

function fakePort() {
  const sent: PublisherMessage[] = [];
  let receive: (message: unknown) => void = () => undefined;
  let disconnect: () => void = () => undefined;
  const port: SubscriberPort = {
    postMessage: (message) => void sent.push(message),
    onMessage: (listener) => void (receive = listener),
    onDisconnect: (listener) => void (disconnect = listener),
  };
  return { port, sent, receive: (message: unknown) => receive(message), disconnect: () => disconnect() };
}

function setup() {
  let ids = 0;
  const runtime = testRuntime({ now: () => 1_000, newId: () => `id-${++ids}` });
  const timers: { callback: () => void; delayMs: number }[] = [];
  const attach = () => {
    const panel = fakePort();
    attachSubscriber(panel.port, {
      runtime,
      newId: () => `owner-${++ids}`,
      setTimer: (callback, delayMs) => void timers.push({ callback, delayMs }),
      orphanGraceMs: 10_000,
    });
    return panel;
  };
  return { runtime, timers, attach };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const lastType = async (runtime: Runtime) => (await runtime.read(sessionId, 0)).at(-1)?.type;

describe('attachSubscriber', () => {
  it('hands out the log so far with its seq and generation, then every later event with the same generation', async () => {
    const { runtime, attach } = setup();
    await runtime.append(sessionId, [turnStarted('turn-1')]);
    const panel = attach();
    panel.receive({ type: 'events/subscribe', sessionId, generation: 3 });
    await settle();
    expect(panel.sent).toHaveLength(1);
    const snapshot = panel.sent[0];
    expect(snapshot).toMatchObject({ type: 'events/snapshot', sessionId, generation: 3, snapshotSeq: 1 });
    expect(snapshot?.type === 'events/snapshot' && snapshot.events.map((event) => event.seq)).toEqual([1]);
    await runtime.append(sessionId, [turnStarted('turn-2')]);
    expect(panel.sent[1]).toMatchObject({ type: 'events/live', generation: 3, event: { seq: 2, turnId: 'turn-2' } });
  });

  it('tells the panel when the session could not be handed out, with its session and generation', async () => {
    const { runtime, attach } = setup();
    await runtime.append(sessionId, [turnStarted('turn-1')]);
    runtime.subscribe = async () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    runtime.turnsBefore = async () => {
      throw new Error('The read was refused.');
    };
    const panel = attach();
    panel.receive({ type: 'events/subscribe', sessionId, generation: 2 });
    panel.receive({ type: 'turns/before', sessionId, generation: 2, before: 4, limit: 2 });
    await settle();
    expect(panel.sent).toEqual([
      { type: 'events/error', sessionId, generation: 2, message: 'The quota has been exceeded.' },
      { type: 'events/error', sessionId, generation: 2, message: 'The read was refused.' },
    ]);
  });

  it('answers an invalid message with an error and changes nothing', async () => {
    const { attach } = setup();
    const panel = attach();
    panel.receive({ type: 'events/subscribe', sessionId: '' });
    expect(panel.sent).toEqual([
      { type: 'events/error', message: expect.stringMatching(/^Invalid subscriber message: /) },
    ]);
  });

  it('after the grace period, interrupts a turn left open that nobody owns', async () => {
    const { runtime, timers, attach } = setup();
    await runtime.append(sessionId, [turnStarted('turn-1')]);
    const panel = attach();
    panel.receive({ type: 'events/subscribe', sessionId, generation: 1 });
    await settle();
    expect(timers.map((timer) => timer.delayMs)).toEqual([10_000]);
    expect(await lastType(runtime)).toBe('turn/started');
    timers[0]?.callback();
    await settle();
    const events = await runtime.read(sessionId, 0);
    expect(events.at(-1)).toMatchObject({
      type: 'turn/interrupted',
      turnId: 'turn-1',
      data: { reason: 'The side panel that ran this turn is gone.' },
    });
  });

  it('leaves an owned turn alone when the grace period ends', async () => {
    const { runtime, timers, attach } = setup();
    await runtime.append(sessionId, [turnStarted('turn-1')]);
    const panel = attach();
    panel.receive({ type: 'turn/own', sessionId, turnId: 'turn-1' });
    panel.receive({ type: 'events/subscribe', sessionId, generation: 1 });
    await settle();
    timers[0]?.callback();
    await settle();
    expect(await lastType(runtime)).toBe('turn/started');
  });

  it('sends a cancel for a turn it owns to this port', async () => {
    const { runtime, attach } = setup();
    await runtime.append(sessionId, [turnStarted('turn-1')]);
    const panel = attach();
    panel.receive({ type: 'turn/own', sessionId, turnId: 'turn-1' });
    await runtime.submitCommand({ sessionId, turnId: 'turn-1', commandId: 'cancel-1', kind: 'cancel' });
    expect(panel.sent).toContainEqual({ type: 'turn/cancel', turnId: 'turn-1', commandId: 'cancel-1' });
  });

  it('on disconnect, stops sending events and interrupts the turns this port still owned', async () => {
    const { runtime, attach } = setup();
    await runtime.append(sessionId, [turnStarted('turn-1'), turnStarted('turn-2')]);
    const panel = attach();
    panel.receive({ type: 'events/subscribe', sessionId, generation: 1 });
    panel.receive({ type: 'turn/own', sessionId, turnId: 'turn-1' });
    panel.receive({ type: 'turn/own', sessionId, turnId: 'turn-2' });
    panel.receive({ type: 'turn/release', sessionId, turnId: 'turn-2' });
    await settle();
    const sentBefore = panel.sent.length;
    panel.disconnect();
    await settle();
    const ends = (await runtime.read(sessionId, 0)).filter((event) => event.type === 'turn/interrupted');
    expect(ends.map((event) => [event.turnId, event.data])).toEqual([
      ['turn-1', { reason: 'The side panel was closed during this turn.' }],
    ]);
    expect(panel.sent).toHaveLength(sentBefore);
  });

  it('sends only the conversation subscribed last: another conversation opened on the same port replaces it', async () => {
    const { runtime, attach } = setup();
    const panel = attach();
    panel.receive({ type: 'events/subscribe', sessionId, generation: 1 });
    panel.receive({ type: 'events/subscribe', sessionId: 'session-2', generation: 1 });
    await settle();
    expect(panel.sent.map((message) => message.type === 'events/snapshot' && message.sessionId)).toEqual(['session-2']);
    await runtime.append(sessionId, [turnStarted('turn-1')]);
    await runtime.append('session-2', [{ ...turnStarted('turn-2'), sessionId: 'session-2' }]);
    const live = panel.sent.filter((message) => message.type === 'events/live');
    expect(live.map((message) => message.type === 'events/live' && message.event.sessionId)).toEqual(['session-2']);
  });

  it('keeps two panels apart: each gets its own generation', async () => {
    const { attach } = setup();
    const first = attach();
    const second = attach();
    first.receive({ type: 'events/subscribe', sessionId, generation: 1 });
    second.receive({ type: 'events/subscribe', sessionId, generation: 7 });
    await settle();
    expect(first.sent.map((message) => message.type === 'events/snapshot' && message.generation)).toEqual([1]);
    expect(second.sent.map((message) => message.type === 'events/snapshot' && message.generation)).toEqual([7]);
  });
});

describe('attachSubscriber and panel visibility', () => {
  it('passes on which conversation the panel shows and whether visibly, and forgets the panel when it goes', async () => {
    const reports: string[] = [];
    const panel = fakePort();
    attachSubscriber(panel.port, {
      runtime: setup().runtime,
      newId: () => 'owner-1',
      setTimer: () => undefined,
      orphanGraceMs: 10_000,
      visibility: {
        report: (panelId, shown, visible) => void reports.push(`${panelId} ${shown} ${visible}`),
        gone: (panelId) => void reports.push(`${panelId} gone`),
      },
    });
    panel.receive({ type: 'panel/visibility', sessionId, visible: true });
    panel.receive({ type: 'panel/visibility', sessionId, visible: false });
    panel.receive({ type: 'panel/visibility', sessionId, visible: 'yes' });
    panel.disconnect();
    await settle();
    expect(reports).toEqual(['owner-1 session-1 true', 'owner-1 session-1 false', 'owner-1 gone']);
    expect(panel.sent.map((message) => message.type)).toEqual(['events/error']);
  });
});
