import { describe, expect, it } from 'vitest';
import { STAGE_SOURCE, TARGET_SOURCE, type StageToTargetMessage } from '../protocol/target-wire';
import { TargetChannel } from './target-channel';

function channel(timeoutMs = 1000) {
  const posted: StageToTargetMessage[] = [];
  let counter = 0;
  const target = new TargetChannel({
    post: (message) => posted.push(message),
    timeoutMs,
    newId: () => `m${++counter}`,
  });
  return { target, posted };
}

describe('TargetChannel', () => {
  it('queues commands until ready, then sends them in order and pairs replies by id', async () => {
    const { target, posted } = channel();
    const first = target.send({ type: 'apply', payload: { speed: 12 } });
    const second = target.send({ type: 'read' });
    expect(posted).toEqual([]);
    target.receive({ source: TARGET_SOURCE, type: 'state', id: 'm1', payload: { speed: 99 } });
    target.receive({ source: TARGET_SOURCE, type: 'ready', state: { speed: 8 } });
    expect(posted).toEqual([
      { source: STAGE_SOURCE, type: 'apply', id: 'm1', payload: { speed: 12 } },
      { source: STAGE_SOURCE, type: 'read', id: 'm2' },
    ]);
    target.receive({ source: TARGET_SOURCE, type: 'state', id: 'm2', payload: { speed: 12 } });
    target.receive({ source: TARGET_SOURCE, type: 'state', id: 'm1', payload: { speed: 12 } });
    await expect(first).resolves.toEqual({ speed: 12 });
    await expect(second).resolves.toEqual({ speed: 12 });
  });

  it('ignores malformed messages and turns an error reply into a rejection', async () => {
    const { target } = channel();
    target.receive({ source: TARGET_SOURCE, type: 'ready' });
    const pending = target.send({ type: 'reset' });
    for (const junk of [
      null,
      'ready',
      { type: 'state', id: 'm1', payload: {} },
      { source: TARGET_SOURCE, type: 'state', id: 'm1', payload: 'x' },
    ])
      target.receive(junk);
    target.receive({ source: TARGET_SOURCE, type: 'error', id: 'm1', message: 'boom' });
    await expect(pending).rejects.toThrow('The target reported an error: boom');
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
