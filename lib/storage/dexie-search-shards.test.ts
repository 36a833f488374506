import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { AGENT_EVENT_SCHEMA_VERSION, type AgentEvent } from '../protocol/agent-event';
import { ConversationSearch } from '../search/conversation-search';
import { DexieEventStore, openSplitbrainDatabase } from './dexie-event-store';
import { DexieSearchShards } from './dexie-search-shards';

function started(sessionId: string, seq: number, text: string): AgentEvent {
  return {
    schemaVersion: AGENT_EVENT_SCHEMA_VERSION,
    type: 'turn/started',
    sessionId,
    seq,
    time: seq,
    durable: true,
    turnId: `turn-${seq}`,
    data: { userItemId: `user-${seq}`, text },
  };
}

describe('DexieSearchShards', () => {
  it('keeps each conversation’s index in IndexedDB and deletes it with the conversation', async () => {
    const indexedDB = new IDBFactory();
    const database = openSplitbrainDatabase('splitbrain-search-test', { indexedDB, IDBKeyRange });
    const store = new DexieEventStore(database);
    const shards = new DexieSearchShards(database);
    await store.append('a', [started('a', 1, 'the secret recipe')]);
    await store.append('b', [started('b', 1, 'another secret')]);
    const search = new ConversationSearch({ log: store, shards, now: () => 0, setTimer: () => {} });
    expect((await search.query('secret')).hits).toHaveLength(2);
    await search.save();
    expect(await database.searchShards.count()).toBe(2);

    await store.deleteSession('a');
    expect((await database.searchShards.toArray()).map((row) => row.sessionId)).toEqual(['b']);
    const restarted = new ConversationSearch({ log: store, shards, now: () => 0, setTimer: () => {} });
    expect((await restarted.query('recipe')).hits).toEqual([]);
    expect((await restarted.query('secret')).hits.map((hit) => hit.sessionId)).toEqual(['b']);
  });
});
