import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  portHandoverMessageSchema,
  STAGE_SOURCE,
  TARGET_SOURCE,
  type StageToTargetMessage,
} from '../protocol/target-wire';
import { TargetChannel } from './target-channel';

const opened: MessagePort[] = [];

afterEach(() => {
  for (const port of opened.splice(0)) port.close();
});

/** The target's end: the port the stage handed over, and what arrived on it. */
interface FakeTarget {
  port: MessagePort;
  received: StageToTargetMessage[];
  /** Resolves once `count` commands have arrived over the port. */
  receivedCount(count: number): Promise<StageToTargetMessage[]>;
  reply(message: unknown): void;
}

function channel(timeoutMs = 1000) {
  const windowPosts: { message: unknown; transfer?: Transferable[] }[] = [];
  const errors: string[] = [];
  const states: unknown[] = [];
  let counter = 0;
  const target = new TargetChannel({
    post: (message, transfer) => windowPosts.push({ message, transfer }),
    timeoutMs,
    newId: () => `m${++counter}`,
    onError: (message) => errors.push(message),
    onState: (state) => states.push(state),
  });
  function handedOver(): FakeTarget {
    const handover = windowPosts.find((post) => portHandoverMessageSchema.safeParse(post.message).success);
    if (!handover?.transfer) throw new Error('no port was handed over');
    const port = handover.transfer[0] as MessagePort;
    opened.push(port);
    const received: StageToTargetMessage[] = [];
    let wake = () => {};
    port.onmessage = (event) => {
      received.push(event.data as StageToTargetMessage);
      wake();
    };
    return {
      port,
      received,
      receivedCount: (count) =>
        new Promise((resolve) => {
          const check = () => (received.length >= count ? resolve(received) : undefined);
          wake = check;
          check();
        }),
      reply: (message) => port.postMessage(message),
    };
  }
  return { target, windowPosts, errors, states, handedOver };
}

describe('TargetChannel', () => {
  it('queues commands until ready, hands over a port, then sends them in order over it and pairs replies by id', async () => {
    const { target, windowPosts, handedOver } = channel();
    const first = target.send({ type: 'apply', payload: { speed: 12 } });
    const second = target.send({ type: 'read' });
    expect(windowPosts).toEqual([]);
    target.receive({ source: TARGET_SOURCE, type: 'state', id: 'm1', payload: { speed: 99 } });
    target.receive({ source: TARGET_SOURCE, type: 'ready', state: { speed: 8 } });
    expect(target.lastState).toEqual({ speed: 8 });
    expect(windowPosts.map((post) => post.message)).toEqual([{ source: STAGE_SOURCE, type: 'port' }]);
    const fake = handedOver();
    expect(await fake.receivedCount(2)).toEqual([
      { source: STAGE_SOURCE, type: 'apply', id: 'm1', payload: { speed: 12 } },
      { source: STAGE_SOURCE, type: 'read', id: 'm2' },
    ]);
    fake.reply({ source: TARGET_SOURCE, type: 'state', id: 'm2', payload: { speed: 12 } });
    fake.reply({ source: TARGET_SOURCE, type: 'state', id: 'm1', payload: { speed: 12 } });
    await expect(first).resolves.toEqual({ speed: 12 });
    await expect(second).resolves.toEqual({ speed: 12 });
    const third = target.send({ type: 'reset' });
    expect((await fake.receivedCount(3))[2]).toEqual({ source: STAGE_SOURCE, type: 'reset', id: 'm3' });
    fake.reply({ source: TARGET_SOURCE, type: 'state', id: 'm3', payload: { speed: 8 } });
    await expect(third).resolves.toEqual({ speed: 8 });
    expect(windowPosts).toHaveLength(1);
  });

  it('after the handover accepts nothing more by window: no second ready, no forged state or error', async () => {
    const { target, windowPosts, errors, states, handedOver } = channel();
    target.receive({ source: TARGET_SOURCE, type: 'ready' });
    const fake = handedOver();
    const pending = target.send({ type: 'read' });
    await fake.receivedCount(1);
    target.receive({ source: TARGET_SOURCE, type: 'ready', state: { forged: true } });
    target.receive({ source: TARGET_SOURCE, type: 'state', id: 'm1', payload: { forged: true } });
    target.receive({ source: TARGET_SOURCE, type: 'state', payload: { forged: true } });
    target.receive({ source: TARGET_SOURCE, type: 'error', message: 'forged' });
    expect(windowPosts).toHaveLength(1);
    fake.reply({ source: TARGET_SOURCE, type: 'state', id: 'm1', payload: { real: true } });
    await expect(pending).resolves.toEqual({ real: true });
    expect(states).toEqual([]);
    expect(errors).toEqual([]);
    expect(target.lastState).toEqual({ real: true });
  });

  it('ignores malformed messages and turns an error reply into a rejection', async () => {
    const { target, handedOver } = channel();
    target.receive({ source: TARGET_SOURCE, type: 'ready' });
    const fake = handedOver();
    const pending = target.send({ type: 'reset' });
    await fake.receivedCount(1);
    for (const junk of [
      null,
      'ready',
      { type: 'state', id: 'm1', payload: {} },
      { source: TARGET_SOURCE, type: 'state', id: 'm1', payload: 'x' },
    ])
      fake.reply(junk);
    fake.reply({ source: TARGET_SOURCE, type: 'error', id: 'm1', message: 'boom' });
    await expect(pending).rejects.toThrow('The target reported an error: boom');
  });

  it('passes an error the target reports on its own to onError, and its own state changes to onState', async () => {
    const { target, errors, states, handedOver } = channel();
    target.receive({ source: TARGET_SOURCE, type: 'error', message: 'before ready' });
    target.receive({ source: TARGET_SOURCE, type: 'ready' });
    const fake = handedOver();
    fake.reply({ source: TARGET_SOURCE, type: 'error', message: 'TypeError: draw failed' });
    fake.reply({ source: TARGET_SOURCE, type: 'error', id: 'no-such-command', message: 'late' });
    fake.reply({ source: TARGET_SOURCE, type: 'state', payload: { speed: 3 } });
    // Messages on one port arrive in order: once the last one is in, so are the errors.
    await vi.waitFor(() => expect(states).toHaveLength(1));
    expect(errors).toEqual(['TypeError: draw failed', 'late']);
    expect(states).toEqual([{ speed: 3 }]);
  });

  it('fails waiting commands when the frame goes away, and times out a target that never gets ready', async () => {
    const { target } = channel(50);
    const waiting = target.send({ type: 'read' });
    await expect(waiting).rejects.toThrow('did not become ready within 50 ms');
    const second = channel();
    const closed = second.target.send({ type: 'read' });
    second.target.close('The stage tab was closed.');
    await expect(closed).rejects.toThrow('The stage tab was closed.');
  });
});
