/**
 * `npm run bench -- "search"`: full-text search over 1,000 conversations of 1,000 events each (1M events, 100
 * turns of ten events per conversation), in Chromium. Words are drawn from a 20,000-word vocabulary by a Zipf
 * law, as real text is. The log is held in memory (reading 1M rows from IndexedDB is the event-log benchmark's
 * figure); the indexes are written to and read back from IndexedDB, as the extension keeps them.
 */
import { AGENT_EVENT_SCHEMA_VERSION, type AgentEvent } from '@/lib/protocol/agent-event';
import type { SessionRecord } from '@/lib/protocol/session-record';
import { ConversationSearch } from '@/lib/search/conversation-search';
import { DexieSearchShards } from '@/lib/storage/dexie-search-shards';
import { openSplitbrainDatabase } from '@/lib/storage/dexie-event-store';

const CONVERSATIONS = Number((globalThis as { BENCH_CONVERSATIONS?: number }).BENCH_CONVERSATIONS ?? 1_000);
const TURNS = 100;
const VOCABULARY = 20_000;
const QUERIES = 300;

let seed = 42;
function random(): number {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
}

/** Syllable words: "kalomi", "tesura"… distinct for each rank. */
function word(rank: number): string {
  const syllables = ['ka', 'lo', 'mi', 'te', 'su', 'ra', 'no', 'vi', 'de', 'pa', 'ri', 'zo', 'fe', 'gu', 'ba', 'ne'];
  let text = '';
  for (let rest = rank + 16; rest > 0; rest = Math.floor(rest / 16)) text += syllables[rest % 16];
  return text;
}
const words = Array.from({ length: VOCABULARY }, (_, rank) => word(rank));
const harmonic = words.reduce((sum, _, rank) => sum + 1 / (rank + 1), 0);
const cumulative = words.map(
  (
    (sum) => (_: string, rank: number) =>
      (sum += 1 / (rank + 1) / harmonic)
  )(0),
);
function zipfWord(): string {
  const target = random();
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (cumulative[middle]! < target) low = middle + 1;
    else high = middle;
  }
  return words[low]!;
}
function sentence(length: number): string {
  return Array.from({ length }, zipfWord).join(' ');
}

function conversationEvents(sessionId: string): AgentEvent[] {
  const events: AgentEvent[] = [];
  const add = (draft: Record<string, unknown>) =>
    events.push({
      schemaVersion: AGENT_EVENT_SCHEMA_VERSION,
      sessionId,
      seq: events.length + 1,
      time: events.length,
      durable: true,
      ...draft,
    } as AgentEvent);
  for (let turn = 0; turn < TURNS; turn += 1) {
    const turnId = `turn-${turn}`;
    const step = { turnId, stepId: `step-${turn}`, attemptId: `attempt-${turn}` };
    const answer = { turnId, stepId: `answer-${turn}`, attemptId: `attempt-${turn}-1` };
    const toolCallId = `call-${turn}`;
    add({ type: 'turn/started', turnId, data: { userItemId: `user-${turn}`, text: sentence(20) } });
    add({ type: 'step/started', ...step, data: { index: 0 } });
    add({
      type: 'tool/requested',
      turnId,
      stepId: step.stepId,
      toolCallId,
      data: { toolName: 'setParameter', input: { param: zipfWord(), value: turn } },
    });
    add({ type: 'tool/started', turnId, toolCallId, data: {} });
    add({ type: 'tool/completed', turnId, toolCallId, data: { output: { ok: true }, durationMs: 3 } });
    add({ type: 'step/completed', ...step, data: { finishReason: 'tool-calls' } });
    add({ type: 'step/started', ...answer, data: { index: 1 } });
    add({ type: 'assistant/completed', ...answer, itemId: `item-${turn}`, data: { text: sentence(60) } });
    add({ type: 'step/completed', ...answer, data: { finishReason: 'stop' } });
    add({ type: 'turn/completed', turnId, data: { reason: 'stop' } });
  }
  return events;
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return Number(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!.toFixed(2));
}

function heapMegabytes(): number {
  (globalThis as { gc?: () => void }).gc?.();
  const memory = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
  return memory ? memory.usedJSHeapSize / 1_048_576 : Number.NaN;
}

async function main(): Promise<void> {
  const logs = new Map<string, AgentEvent[]>();
  const sessions: SessionRecord[] = [];
  for (let index = 0; index < CONVERSATIONS; index += 1) {
    const sessionId = `conversation-${index}`;
    const events = conversationEvents(sessionId);
    logs.set(sessionId, events);
    sessions.push({
      sessionId,
      title: `Conversation ${index}`,
      createdAt: index,
      updatedAt: index,
      lastSeq: events.length,
    });
  }
  const log = {
    listSessions: async () => sessions,
    read: async (sessionId: string, afterSeq: number, limit?: number) =>
      (logs.get(sessionId) ?? []).slice(afterSeq, limit === undefined ? undefined : afterSeq + limit),
  };
  const database = openSplitbrainDatabase('search-bench');
  await database.searchShards.clear();
  const shards = new DexieSearchShards(database);
  const heapBefore = heapMegabytes();
  const searchOptions = { log, shards, now: () => performance.now(), setTimer: () => {} };
  const search = new ConversationSearch({ ...searchOptions, loadBudgetMs: Number.POSITIVE_INFINITY });

  let started = performance.now();
  await search.query(word(5));
  const buildMs = performance.now() - started;
  const heapIndexes = heapMegabytes() - heapBefore;

  const queries = Array.from({ length: QUERIES }, (_, index) => {
    if (index % 4 === 0) return zipfWord();
    if (index % 4 === 1) return `${zipfWord()} ${zipfWord()}`;
    if (index % 4 === 2) return word(Math.floor(random() * VOCABULARY)).slice(0, 5);
    return word(Math.floor(random() * 200));
  });
  const times: number[] = [];
  let hits = 0;
  for (const query of queries) {
    started = performance.now();
    hits += (await search.query(query)).hits.length;
    times.push(performance.now() - started);
  }

  const committed = 10_000;
  const tailOf = logs.get('conversation-0')!;
  const answers = Array.from({ length: committed }, () => sentence(60));
  started = performance.now();
  for (const text of answers) {
    const event = { ...tailOf[7]!, seq: tailOf.length + 1, data: { text } } as AgentEvent;
    tailOf.push(event);
    search.noteCommitted('conversation-0', [event]);
  }
  const perCommittedEventMicroseconds = ((performance.now() - started) * 1000) / committed;

  started = performance.now();
  await search.save();
  const saveMs = performance.now() - started;
  started = performance.now();
  const restarted = new ConversationSearch({ ...searchOptions, loadBudgetMs: Number.POSITIVE_INFINITY });
  await restarted.query(word(5));
  const reloadMs = performance.now() - started;
  const budgeted = new ConversationSearch(searchOptions);
  const firstAnswer = await budgeted.query(word(5));
  const storedMegabytes =
    (await database.searchShards.toArray()).reduce((sum, row) => sum + JSON.stringify(row.documents).length, 0) /
    1_048_576;
  await database.delete();

  console.log(
    `BENCH ${JSON.stringify({
      name: 'search',
      conversations: CONVERSATIONS,
      events: CONVERSATIONS * TURNS * 10,
      indexedTexts: CONVERSATIONS * TURNS * 3,
      buildFromLogMs: Math.round(buildMs),
      heapOfIndexesMegabytes: Math.round(heapIndexes),
      queryP50Ms: percentile(times, 0.5),
      queryP95Ms: percentile(times, 0.95),
      queryMaxMs: percentile(times, 1),
      meanHits: Math.round(hits / QUERIES),
      perCommittedEventMicroseconds: Number(perCommittedEventMicroseconds.toFixed(1)),
      saveAllMs: Math.round(saveMs),
      storedIndexMegabytes: Math.round(storedMegabytes),
      reloadAllAfterRestartMs: Math.round(reloadMs),
      firstAnswerAfterRestartMs: Math.round(firstAnswer.elapsedMs),
      firstAnswerSearchedConversations: firstAnswer.conversations,
    })}`,
  );
}

main().catch((error: unknown) => console.log(`BENCH ${JSON.stringify({ name: 'search', error: String(error) })}`));
