import { describe, expect, it } from 'vitest';
import { MemoryEventStore } from '../session-log/memory-event-store';
import { EventLog } from '../../tests/support/event-log';
import { ConversationSearch } from './conversation-search';
import { MemorySearchShardStore } from './memory-search-shard-store';
import { indexedEventStore } from '../runtime/indexed-event-store';
import type { SearchShardRow } from '../protocol/search-shard-row';

async function conversation(store: MemoryEventStore, sessionId: string, texts: string[]): Promise<EventLog> {
  const log = new EventLog(sessionId);
  log.add({ type: 'session/created', data: { title: `Conversation ${sessionId}` } });
  texts.forEach((text, turn) => {
    log.turnStarted(`turn-${turn}`, text);
    log.completed(
      { turnId: `turn-${turn}`, stepId: `step-${turn}`, attemptId: `attempt-${turn}`, itemId: `item-${turn}` },
      `Answer about ${text}`,
    );
  });
  await store.append(sessionId, log.durable);
  return log;
}

function searchOver(store: MemoryEventStore, shards = new MemorySearchShardStore()) {
  const timers: (() => void)[] = [];
  const search = new ConversationSearch({
    log: store,
    shards,
    now: () => 0,
    setTimer: (run) => timers.push(run),
  });
  const runTimers = async () => {
    for (const run of timers.splice(0)) run();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { search, shards, runTimers };
}

describe('ConversationSearch', () => {
  it('finds messages across conversations, naming the conversation, the event and a snippet', async () => {
    const store = new MemoryEventStore();
    await conversation(store, 'a', ['Set the particle speed to twelve']);
    await conversation(store, 'b', ['Plot the quarterly revenue', 'Export the revenue table as CSV']);
    const { search } = searchOver(store);

    const result = await search.query('revenue');

    expect(result.conversations).toBe(2);
    expect(result.hits.map((hit) => hit.sessionId)).toEqual(['b', 'b', 'b', 'b']);
    const user = result.hits.find((hit) => hit.kind === 'user' && hit.snippet.startsWith('Export'));
    expect(user).toMatchObject({ title: 'Conversation b', turnId: 'turn-1', turnPosition: 1, terms: ['revenue'] });
    expect(user?.snippet).toBe('Export the revenue table as CSV');
  });

  it('matches a prefix and forgives a spelling that sounds alike, and needs every word', async () => {
    const store = new MemoryEventStore();
    await conversation(store, 'a', ['Summarise the invoice from March']);
    const { search } = searchOver(store);

    expect((await search.query('invo')).hits.length).toBeGreaterThan(0);
    expect((await search.query('invoyce')).hits.length).toBeGreaterThan(0);
    expect((await search.query('sumarize')).hits.length).toBeGreaterThan(0);
    expect((await search.query('invoice april')).hits).toEqual([]);
    expect((await search.query('   ')).hits).toEqual([]);
  });

  it('adds what commits after loading, and catches up with what was committed while it was not looking', async () => {
    const store = new MemoryEventStore();
    const log = await conversation(store, 'a', ['first question']);
    const { search } = searchOver(store);
    expect((await search.query('zebra')).hits).toEqual([]);

    const committed = [log.turnStarted('turn-9', 'a question about zebras')];
    await store.append('a', committed);
    search.noteCommitted('a', committed);
    expect((await search.query('zebras')).hits).toHaveLength(1);

    const unseen = [log.turnStarted('turn-10', 'and one about giraffes')];
    await store.append('a', unseen);
    expect((await search.query('giraffes')).hits).toHaveLength(1);
  });

  it('stores its indexes and reads them back after a restart without reading the log again', async () => {
    const store = new MemoryEventStore();
    await conversation(store, 'a', ['the lighthouse keeper']);
    const first = searchOver(store);
    await first.search.query('lighthouse');
    await first.runTimers();
    expect(first.shards.rows.get('a')?.throughSeq).toBe(3);

    let tailReads = 0;
    const counting = {
      listSessions: () => store.listSessions(),
      read: (sessionId: string, afterSeq: number, limit?: number) => {
        if (limit === undefined || limit > 1) tailReads += 1;
        return store.read(sessionId, afterSeq, limit);
      },
    };
    const restarted = new ConversationSearch({ log: counting, shards: first.shards, now: () => 0, setTimer: () => {} });
    expect((await restarted.query('keeper')).hits).toHaveLength(2);
    expect(tailReads).toBe(0);
  });

  it('rebuilds a stored index of an older format or that it cannot read, and drops the index of a deleted conversation', async () => {
    const store = new MemoryEventStore();
    await conversation(store, 'a', ['the orchard in autumn']);
    await conversation(store, 'b', ['the harbour at night']);
    await conversation(store, 'c', ['the meadow in spring']);
    const shards = new MemorySearchShardStore();
    // Format 1 held a MiniSearch index: a row from before is rebuilt from the log, as is one that does not parse.
    const older = { sessionId: 'a', throughSeq: 3, turns: 1, format: 1, index: '{"not":"an index"' };
    shards.rows.set('a', older as unknown as SearchShardRow);
    shards.rows.set('c', { sessionId: 'c', throughSeq: 3, turns: 1, format: 2, documents: 'nonsense' } as never);
    const { search, runTimers } = searchOver(store, shards);

    expect((await search.query('orchard')).hits).toHaveLength(2);
    expect((await search.query('meadow')).hits).toHaveLength(2);
    await indexedEventStore(store, search).deleteSession('b');
    expect((await search.query('harbour')).hits).toEqual([]);
    await runTimers();
    expect([...shards.rows.keys()].sort()).toEqual(['a', 'c']);
    expect(shards.rows.get('a')).toMatchObject({ format: 2, throughSeq: 3 });
    expect(shards.rows.get('a')?.documents.map((document) => document.kind)).toEqual(['title', 'user', 'assistant']);
  });

  it('finds tool names and inputs', async () => {
    const store = new MemoryEventStore();
    const log = new EventLog('a');
    log.add({ type: 'session/created', data: { title: 'Tools' } });
    log.turnStarted('turn-1', 'go');
    log.toolRequested('turn-1', 'step-1', 'call-1', { param: 'brightness', value: 3 });
    await store.append('a', log.durable);
    const { search } = searchOver(store);

    const [hit] = (await search.query('brightness')).hits;
    expect(hit).toMatchObject({ kind: 'tool', turnId: 'turn-1' });
    expect(hit?.snippet).toContain('setParameter');
  });

  it('answers within its loading budget, newest conversations first, and goes on with the rest when asked again', async () => {
    const store = new MemoryEventStore();
    await conversation(store, 'old', ['the comet returns']);
    const newer = await conversation(store, 'new', ['the comet passes']);
    await store.append('new', [newer.add({ type: 'session/renamed', time: 50_000, data: { title: 'Comets' } })]);
    let clock = 0;
    const search = new ConversationSearch({
      log: store,
      shards: new MemorySearchShardStore(),
      now: () => (clock += 10),
      setTimer: () => {},
      loadBudgetMs: 15,
    });

    const first = await search.query('comet');
    expect(first).toMatchObject({ conversations: 1, pending: 1 });
    expect(first.hits.every((hit) => hit.sessionId === 'new')).toBe(true);
    const second = await search.query('comet');
    expect(second).toMatchObject({ conversations: 2, pending: 0 });
  });
});
