import { describe, expect, it, vi } from 'vitest';
import type { AgentEvent, AgentEventDraft } from '../protocol/agent-event';
import { testRuntime, tickingClock } from '../../tests/support/test-runtime';
import { MemoryEventStore } from '../session-log/memory-event-store';

/** A store whose next appends fail as IndexedDB does when the origin is over its quota. */
class FailingStore extends MemoryEventStore {
  failures = 0;

  override async append(sessionId: string, events: AgentEvent[], batchId?: string): Promise<void> {
    if (this.failures > 0) {
      this.failures--;
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    }
    return super.append(sessionId, events, batchId);
  }
}

function setup() {
  const store = new FailingStore();
  const executeTool = vi.fn(async () => ({ ok: true as const, speed: 12 }));
  const runtime = testRuntime({ store, executeTool, now: tickingClock(0, 5) });
  return { store, runtime, executeTool };
}

const sessionId = 's';
const turnStarted: AgentEventDraft = {
  type: 'turn/started',
  sessionId,
  turnId: 't',
  time: 1,
  data: { userItemId: 'u', text: 'Hello' },
};
const notice = (message: string): AgentEventDraft => ({
  type: 'notification',
  sessionId,
  notificationId: message,
  time: 2,
  data: { level: 'info', message },
});

describe('a durable write that fails', () => {
  it('is reported to the caller, advances no seq and broadcasts nothing', async () => {
    const { store, runtime } = setup();
    await runtime.append(sessionId, [turnStarted]);
    const seen: AgentEvent[] = [];
    await runtime.subscribe(sessionId, (event) => seen.push(event));
    store.failures = 1;
    await expect(runtime.append(sessionId, [notice('lost')], 'batch-1')).rejects.toThrow(
      'The quota has been exceeded.',
    );
    expect(seen).toEqual([]);
    expect(await store.read(sessionId, 0)).toHaveLength(1);

    expect(await runtime.append(sessionId, [notice('kept')], 'batch-2')).toBe(2);
    expect(seen.map((event) => [event.seq, event.type])).toEqual([[2, 'notification']]);
    expect((await store.read(sessionId, 0)).map((event) => event.seq)).toEqual([1, 2]);
  });

  it('lets the same batch be sent again after a failure, and records it once', async () => {
    const { store, runtime } = setup();
    await runtime.append(sessionId, [turnStarted]);
    store.failures = 1;
    await expect(runtime.append(sessionId, [notice('again')], 'batch-1')).rejects.toThrow();
    expect(await runtime.append(sessionId, [notice('again')], 'batch-1')).toBe(2);
    expect(await runtime.append(sessionId, [notice('again')], 'batch-1')).toBe(2);
    expect((await store.read(sessionId, 0)).map((event) => event.type)).toEqual(['turn/started', 'notification']);
  });

  it('never runs a tool whose start could not be recorded', async () => {
    const { store, runtime, executeTool } = setup();
    await runtime.append(sessionId, [turnStarted]);
    store.failures = 1;
    await expect(
      runtime.executeTool({
        sessionId,
        turnId: 't',
        stepId: 'step',
        toolCallId: 'call',
        toolName: 'getParameters',
        input: {},
      }),
    ).rejects.toThrow('The quota has been exceeded.');
    expect(executeTool).not.toHaveBeenCalled();
    expect(await store.read(sessionId, 0)).toHaveLength(1);
  });
});

describe('a snapshot that cannot be written', () => {
  it('still opens the conversation from its log, and snapshots it once space is back', async () => {
    const store = new MemoryEventStore();
    const refusing = { refused: true };
    const { write } = store.snapshots;
    Object.assign(store.snapshots, {
      write: async (...args: Parameters<typeof write>) => {
        if (refusing.refused) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        return write(...args);
      },
    });
    const runtime = () =>
      testRuntime({
        store,
        now: () => 5,
        newId: () => crypto.randomUUID(),
        snapshots: { every: 1_000, delayMs: 0, setTimer: () => {}, windowTurns: 1, pageSize: 1 },
      });
    await runtime().append(sessionId, [turnStarted, notice('one'), notice('two')]);

    // A worker started while the origin is out of space: its first open would build the snapshot and write it.
    const restarted = runtime();
    const opened = await restarted.subscribe(sessionId, () => {});
    expect(opened.state).toBeUndefined();
    expect(opened.snapshot.map((event) => event.seq)).toEqual([1, 2, 3]);
    expect(await store.snapshots.readHead(sessionId)).toBeUndefined();

    refusing.refused = false;
    const later = await runtime().subscribe(sessionId, () => {});
    expect(later.state?.snapshotSeq).toBe(3);
    expect(await store.snapshots.readHead(sessionId)).toMatchObject({ snapshotSeq: 3 });
  });
});
