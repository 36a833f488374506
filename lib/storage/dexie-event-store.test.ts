import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/agent-event';
import { EventLog } from '../../tests/support/event-log';
import { testRuntime } from '../../tests/support/test-runtime';
import { DexieEventStore, openSplitbrainDatabase, StoredRowError } from './dexie-event-store';

/** A database in its own fresh in-memory IndexedDB; `reopen` opens the same one again, as a restarted worker would. */
function freshDatabase() {
  const indexedDB = new IDBFactory();
  const open = () => openSplitbrainDatabase('splitbrain-test', { indexedDB, IDBKeyRange });
  const database = open();
  return { database, store: new DexieEventStore(database), reopen: () => new DexieEventStore(open()) };
}

const step = { turnId: 'turn-1', stepId: 'step-1', attemptId: 'attempt-1' };

/** A session with a title, a turn and one tool call. */
function sessionLog(sessionId: string, title: string): EventLog {
  const log = new EventLog(sessionId);
  log.add({ type: 'session/created', data: { title } });
  log.turnStarted('turn-1');
  log.stepStarted(step);
  log.toolRequested('turn-1', 'step-1', 'call-1');
  log.add({ type: 'tool/started', turnId: 'turn-1', toolCallId: 'call-1', data: {} });
  log.add({
    type: 'tool/completed',
    turnId: 'turn-1',
    toolCallId: 'call-1',
    data: { output: { ok: true, speed: 12 }, durationMs: 4 },
  });
  log.add({ type: 'session/renamed', data: { title: `${title} (renamed)` } });
  log.turnCompleted('turn-1');
  return log;
}

describe('DexieEventStore', () => {
  it('appends and reads back events of one session in seq order, after any seq', async () => {
    const { store } = freshDatabase();
    const log = sessionLog('session-1', 'Particles');
    await store.append('session-1', log.durable.slice(0, 3));
    await store.append('session-1', log.durable.slice(3));
    expect(await store.read('session-1', 0)).toEqual(log.durable);
    expect(await store.read('session-1', 5)).toEqual(log.durable.filter((event) => event.seq > 5));
    expect(await store.read('session-1', log.durable.length)).toEqual([]);
    // A page: the first `limit` events after the seq.
    expect(await store.read('session-1', 2, 3)).toEqual(log.durable.filter((event) => event.seq > 2).slice(0, 3));
    expect(await store.lastSeq('session-1')).toBe(log.durable.length);
  });

  it('keeps sessions apart', async () => {
    const { store } = freshDatabase();
    const first = sessionLog('session-1', 'First');
    const second = sessionLog('session-2', 'Second');
    await store.append('session-2', second.durable.slice(0, 2));
    await store.append('session-1', first.durable);
    expect(await store.read('session-2', 0)).toEqual(second.durable.slice(0, 2));
    expect(await store.lastSeq('session-2')).toBe(2);
    expect(await store.lastSeq('session-3')).toBe(0);
    expect(await store.read('session-3', 0)).toEqual([]);
  });

  it('reads the events of one tool call, in seq order, and nothing else', async () => {
    const { store } = freshDatabase();
    const log = sessionLog('session-1', 'Particles');
    const other = sessionLog('session-2', 'Other');
    await store.append('session-1', log.durable.slice(0, 4));
    await store.append('session-1', log.durable.slice(4));
    await store.append('session-2', other.durable);
    const call = await store.readToolCall('session-1', 'call-1');
    expect(call.map((event) => [event.type, event.seq])).toEqual([
      ['tool/requested', 4],
      ['tool/started', 5],
      ['tool/completed', 6],
    ]);
    expect(await store.readToolCall('session-1', 'call-2')).toEqual([]);
  });

  it('finds a tool call written after it first looked for one, and one a previous worker wrote', async () => {
    const { store, reopen } = freshDatabase();
    const log = sessionLog('session-1', 'Particles');
    await store.append('session-1', log.durable.slice(0, 3));
    expect(await store.readToolCall('session-1', 'call-1')).toEqual([]);
    await store.append('session-1', log.durable.slice(3, 5));
    expect((await store.readToolCall('session-1', 'call-1')).map((event) => event.type)).toEqual([
      'tool/requested',
      'tool/started',
    ]);
    const restarted = reopen();
    expect((await restarted.readToolCall('session-1', 'call-1')).map((event) => event.type)).toEqual([
      'tool/requested',
      'tool/started',
    ]);
    await store.append('session-1', log.durable.slice(5));
    expect(await restarted.readToolCall('session-1', 'call-1')).toHaveLength(3);
    expect(await restarted.readToolCall('session-1', 'call-2')).toEqual([]);
  });

  it('keeps the session row right across appends, a failed append and a delete', async () => {
    const { store, reopen } = freshDatabase();
    const log = sessionLog('session-1', 'Particles');
    await store.append('session-1', log.durable.slice(0, 2), 'batch-1');
    await expect(store.append('session-1', [{ ...log.durable[2], seq: 1 }])).rejects.toThrow();
    await store.append('session-1', log.durable.slice(2));
    const [row] = await reopen().listSessions();
    expect([row.title, row.lastSeq, row.lastBatchId, row.updatedAt]).toEqual([
      'Particles (renamed)',
      log.durable.length,
      'batch-1',
      log.durable.at(-1)!.time,
    ]);
    await store.deleteSession('session-1');
    expect(await store.readToolCall('session-1', 'call-1')).toEqual([]);
    await store.append('session-1', log.durable.slice(0, 1));
    expect((await reopen().listSessions()).map((session) => [session.title, session.lastSeq])).toEqual([
      ['Particles', 1],
    ]);
  });

  it('keeps the usage total of the appended step/completed events in the session row, across a restart', async () => {
    const { store, reopen } = freshDatabase();
    const log = new EventLog('session-1');
    log.add({ type: 'session/created', data: { title: 'Usage' } });
    log.turnStarted('turn-1');
    log.add({ type: 'step/completed', ...step, data: { finishReason: 'tool-calls', usage: { inputTokens: 100 } } });
    log.add({
      type: 'step/completed',
      ...step,
      stepId: 'step-2',
      data: { finishReason: 'stop', usage: { inputTokens: 150, outputTokens: 20 } },
    });
    await store.append('session-1', log.durable.slice(0, 3));
    expect((await store.listSessions())[0].usage).toEqual({ inputTokens: 100 });
    await reopen().append('session-1', log.durable.slice(3));
    const [row] = await reopen().listSessions();
    expect(row.usage).toEqual({ inputTokens: 250, outputTokens: 20 });
  });

  it('has no usage in the row of a session none of whose steps reported any', async () => {
    const { store } = freshDatabase();
    await store.append('session-1', sessionLog('session-1', 'Particles').durable);
    const [row] = await store.listSessions();
    expect(row).not.toHaveProperty('usage');
  });

  it('lists sessions newest first with their title, times and last seq', async () => {
    const { store } = freshDatabase();
    const older = sessionLog('session-1', 'Older');
    await store.append('session-1', older.durable);
    const newer = new EventLog('session-2');
    for (let tick = 0; tick < 50; tick++)
      newer.add({ type: 'notification', notificationId: `n-${tick}`, data: { level: 'info', message: 'tick' } });
    newer.add({ type: 'session/created', data: { title: 'Newer' } });
    await store.append('session-2', newer.durable);
    const sessions = await store.listSessions();
    expect(sessions.map((session) => [session.sessionId, session.title, session.lastSeq])).toEqual([
      ['session-2', 'Newer', 51],
      ['session-1', 'Older (renamed)', older.durable.length],
    ]);
    expect(sessions[1].createdAt).toBe(older.durable[0].time);
    expect(sessions[1].updatedAt).toBe(older.durable.at(-1)!.time);
  });

  it('writes nothing of a batch that holds a seq already stored', async () => {
    const { store } = freshDatabase();
    const log = sessionLog('session-1', 'Particles');
    await store.append('session-1', log.durable.slice(0, 3));
    const clash: AgentEvent = { ...log.durable[3], seq: 3 };
    await expect(store.append('session-1', [log.durable[4], clash])).rejects.toThrow();
    expect(await store.read('session-1', 0)).toEqual(log.durable.slice(0, 3));
    expect((await store.listSessions())[0].lastSeq).toBe(3);
  });

  it('remembers the last appended batch id', async () => {
    const { store } = freshDatabase();
    const log = sessionLog('session-1', 'Particles');
    expect(await store.lastBatchId('session-1')).toBeUndefined();
    await store.append('session-1', log.durable.slice(0, 2), 'batch-1');
    await store.append('session-1', log.durable.slice(2, 3));
    expect(await store.lastBatchId('session-1')).toBe('batch-1');
    await store.append('session-1', log.durable.slice(3, 4), 'batch-2');
    expect(await store.lastBatchId('session-1')).toBe('batch-2');
  });

  it('gives a StoredRowError naming the session and seq of a row that fails the schema', async () => {
    const { database, store } = freshDatabase();
    const log = sessionLog('session-1', 'Particles');
    await store.append('session-1', log.durable.slice(0, 4));
    const broken = { ...log.durable[1], data: { text: 42 } };
    await database.events.put({ sessionId: 'session-1', seq: 2, event: broken });
    await database.events.put({
      sessionId: 'session-1',
      seq: 5,
      toolCallId: 'call-1',
      event: { type: 'tool/started', note: 'not an event' },
    });
    const reading = store.read('session-1', 0);
    await expect(reading).rejects.toBeInstanceOf(StoredRowError);
    await expect(store.read('session-1', 0)).rejects.toThrow(/session-1#2/);
    await expect(store.readToolCall('session-1', 'call-1')).rejects.toThrow(/session-1#5/);
    await expect(store.read('session-1', 2)).rejects.toThrow(/session-1#5/);
    expect(await store.read('session-1', 5)).toEqual([]);
  });

  it('lets a restarted runtime continue the seq from what is stored', async () => {
    const { store, reopen } = freshDatabase();
    const dependencies = { now: () => 5, newId: () => 'id' };
    const first = testRuntime({ store, ...dependencies });
    await first.append('session-1', [
      {
        type: 'turn/started',
        sessionId: 'session-1',
        turnId: 'turn-1',
        time: 1,
        data: { userItemId: 'u', text: 'hi' },
      },
      { type: 'turn/completed', sessionId: 'session-1', turnId: 'turn-1', time: 2, data: { reason: 'stop' } },
    ]);
    const restarted = testRuntime({ store: reopen(), ...dependencies });
    expect(
      await restarted.append('session-1', [
        {
          type: 'notification',
          sessionId: 'session-1',
          notificationId: 'n',
          time: 3,
          data: { level: 'info', message: 'back' },
        },
      ]),
    ).toBe(3);
    expect((await store.read('session-1', 0)).map((event) => event.seq)).toEqual([1, 2, 3]);
  });
});
