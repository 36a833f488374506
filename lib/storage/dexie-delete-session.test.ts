import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { AGENT_EVENT_SCHEMA_VERSION, type AgentEvent } from '../protocol/agent-event';
import { DexieEventStore, openSplitbrainDatabase } from './dexie-event-store';

function created(
  sessionId: string,
  seq: number,
  type: 'session/created' | 'session/renamed' = 'session/created',
): AgentEvent {
  return {
    schemaVersion: AGENT_EVENT_SCHEMA_VERSION,
    type,
    sessionId,
    seq,
    time: seq,
    durable: true,
    data: { title: `Session ${sessionId}` },
  };
}

describe('DexieEventStore.deleteSession', () => {
  it('removes every event and the row of one session only', async () => {
    const indexedDB = new IDBFactory();
    const database = openSplitbrainDatabase('splitbrain-delete-test', { indexedDB, IDBKeyRange });
    const store = new DexieEventStore(database);
    await store.append('a', [created('a', 1), created('a', 2, 'session/renamed')]);
    await store.append('b', [created('b', 1)]);
    await store.deleteSession('a');
    expect(await store.read('a', 0)).toEqual([]);
    expect(await store.lastSeq('a')).toBe(0);
    expect((await store.listSessions()).map((session) => session.sessionId)).toEqual(['b']);
    expect(await store.read('b', 0)).toHaveLength(1);
    expect(await database.events.count()).toBe(1);
  });
});
