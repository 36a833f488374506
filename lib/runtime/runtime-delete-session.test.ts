import { describe, expect, it } from 'vitest';
import type { AgentEventDraft } from '../protocol/agent-event';
import { testRuntime, tickingClock } from '../../tests/support/test-runtime';
import { MemoryEventStore } from '../session-log/memory-event-store';

function setup() {
  const store = new MemoryEventStore();
  const runtime = testRuntime({ store, now: tickingClock(0, 5) });
  return { store, runtime };
}

const started = (sessionId: string, turnId: string): AgentEventDraft[] => [
  { type: 'session/created', sessionId, time: 1, data: { title: 'Hello' } },
  { type: 'turn/started', sessionId, turnId, time: 2, data: { userItemId: `${turnId}-user`, text: 'Hello' } },
];

describe('Runtime.deleteSession', () => {
  it('removes the log and the session row, and leaves other sessions alone', async () => {
    const { store, runtime } = setup();
    await runtime.append('a', [
      ...started('a', 't1'),
      { type: 'turn/completed', sessionId: 'a', turnId: 't1', time: 3, data: { reason: 'stop' } },
    ]);
    await runtime.append('b', [
      ...started('b', 't2'),
      { type: 'turn/completed', sessionId: 'b', turnId: 't2', time: 3, data: { reason: 'stop' } },
    ]);
    await runtime.deleteSession('a');
    expect(await store.read('a', 0)).toEqual([]);
    expect((await runtime.listSessions()).map((session) => session.sessionId)).toEqual(['b']);
    expect(await store.read('b', 0)).toHaveLength(3);
  });

  it('refuses while a turn of the session is open', async () => {
    const { store, runtime } = setup();
    await runtime.append('a', started('a', 't1'));
    await expect(runtime.deleteSession('a')).rejects.toThrow(/still running/);
    expect(await store.read('a', 0)).toHaveLength(2);
  });

  it('starts a reused id from seq 1 again', async () => {
    const { runtime } = setup();
    await runtime.append('a', [
      ...started('a', 't1'),
      { type: 'turn/completed', sessionId: 'a', turnId: 't1', time: 3, data: { reason: 'stop' } },
    ]);
    await runtime.deleteSession('a');
    expect(await runtime.append('a', started('a', 't2'))).toBe(2);
  });
});
