import MiniSearch, { type SearchResult as MiniSearchResult } from 'minisearch';
import type { AgentEvent } from '../protocol/agent-event';
import { readAllEvents } from '../protocol/read-all-events';
import type { SearchHit, SearchResult } from '../protocol/search-hit';
import type { SessionRecord } from '../protocol/session-record';
import { searchDocumentsOf, type SearchDocument } from './search-document';
import {
  SEARCH_SHARD_FORMAT,
  searchShardRowSchema,
  type SearchShardRow,
  type SearchShardStore,
} from '../protocol/search-shard-row';
import { searchSnippet } from './search-snippet';

export interface ConversationSearchOptions {
  /** The log: where indexes catch up from, and where a hit's text is read back. */
  log: {
    listSessions(): Promise<SessionRecord[]>;
    read(sessionId: string, afterSeq: number, limit?: number): Promise<AgentEvent[]>;
  };
  shards: SearchShardStore;
  now(): number;
  /** Runs `save` later, off the path of the commit that made an index dirty. */
  setTimer(save: () => void, delayMs: number): void;
  saveDelayMs?: number;
  /**
   * How long one query may spend loading or building indexes before it answers with what it has searched; the
   * rest are `pending` and the next query goes on with them. The most recently updated conversations load first.
   */
  loadBudgetMs?: number;
}

interface Shard {
  index: MiniSearch<SearchDocument>;
  throughSeq: number;
  /** Turns started up to `throughSeq`: a text's turn is found by its place among them. */
  turns: number;
  dirty: boolean;
}

const INDEX_OPTIONS = {
  fields: ['text'],
  storeFields: ['seq', 'turnId', 'turnPosition', 'kind'],
  searchOptions: { prefix: true, combineWith: 'AND' as const },
};

function newIndex(): MiniSearch<SearchDocument> {
  return new MiniSearch<SearchDocument>(INDEX_OPTIONS);
}

/**
 * Full-text search over every conversation: one MiniSearch index per conversation, kept in IndexedDB with the
 * seq it covers. An index is derived from the log and only ever catches up with it: committed events are added
 * as they commit while the index is loaded, a query first adds what the log has past each index, and a stored
 * index that cannot be read is rebuilt from the log. The worker can stop at any time, so indexes load on demand,
 * newest conversations first, within a time budget per query.
 */
export class ConversationSearch {
  private readonly shards = new Map<string, Shard>();
  private saveScheduled = false;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ConversationSearchOptions) {}

  query(text: string, limit = 20): Promise<SearchResult> {
    const run = this.queue.then(() => this.search(text, limit));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** The events a commit stored: added at once to a loaded index that is exactly behind them, else left to catch up. */
  noteCommitted(sessionId: string, events: readonly AgentEvent[]): void {
    const shard = this.shards.get(sessionId);
    if (!shard || events.length === 0 || events[0]!.seq !== shard.throughSeq + 1) return;
    this.addEvents(shard, events);
    this.scheduleSave();
  }

  async forget(sessionId: string): Promise<void> {
    this.shards.delete(sessionId);
    await this.options.shards.delete(sessionId);
  }

  /** Writes every index changed since it was last written. */
  async save(): Promise<void> {
    const rows: SearchShardRow[] = [];
    for (const [sessionId, shard] of this.shards) {
      if (!shard.dirty) continue;
      shard.dirty = false;
      rows.push({
        sessionId,
        throughSeq: shard.throughSeq,
        turns: shard.turns,
        format: SEARCH_SHARD_FORMAT,
        index: JSON.stringify(shard.index),
      });
    }
    if (rows.length > 0) await this.options.shards.put(rows);
  }

  private async search(text: string, limit: number): Promise<SearchResult> {
    const started = this.options.now();
    const sessions = (await this.options.log.listSessions()).sort((left, right) => right.updatedAt - left.updatedAt);
    const live = new Set(sessions.map((session) => session.sessionId));
    for (const sessionId of [...this.shards.keys()]) if (!live.has(sessionId)) this.shards.delete(sessionId);
    const budgetEnds = started + (this.options.loadBudgetMs ?? 400);
    const searched: { session: SessionRecord; shard: Shard }[] = [];
    for (const session of sessions) {
      const shard =
        this.shards.get(session.sessionId) ?? (this.options.now() < budgetEnds ? await this.load(session) : undefined);
      if (!shard) continue;
      if (session.lastSeq > shard.throughSeq) await this.catchUp(session.sessionId, shard);
      searched.push({ session, shard });
    }
    this.scheduleSave();
    const query = text.trim();
    const ranked: { session: SessionRecord; result: MiniSearchResult }[] = [];
    if (query !== '')
      for (const { session, shard } of searched)
        // Each index answers in score order: its best `limit` are all the merge can use.
        for (const result of shard.index.search(query, { fuzzy: fuzziness }).slice(0, limit))
          ranked.push({ session, result });
    ranked.sort(
      (left, right) => right.result.score - left.result.score || right.session.updatedAt - left.session.updatedAt,
    );
    const hits = await Promise.all(ranked.slice(0, limit).map(({ session, result }) => this.hit(session, result)));
    return {
      hits,
      conversations: searched.length,
      pending: sessions.length - searched.length,
      elapsedMs: this.options.now() - started,
    };
  }

  private async load(session: SessionRecord): Promise<Shard> {
    const parsed = searchShardRowSchema.safeParse(await this.options.shards.read(session.sessionId));
    let shard: Shard = { index: newIndex(), throughSeq: 0, turns: 0, dirty: true };
    if (parsed.success)
      try {
        const index = MiniSearch.loadJSON<SearchDocument>(parsed.data.index, INDEX_OPTIONS);
        shard = { index, throughSeq: parsed.data.throughSeq, turns: parsed.data.turns, dirty: false };
      } catch {
        // An index that cannot be read is rebuilt from the log.
      }
    this.shards.set(session.sessionId, shard);
    return shard;
  }

  private async catchUp(sessionId: string, shard: Shard): Promise<void> {
    const tail = await readAllEvents(
      (afterSeq, limit) => this.options.log.read(sessionId, afterSeq, limit),
      shard.throughSeq,
    );
    this.addEvents(shard, tail);
  }

  private addEvents(shard: Shard, events: readonly AgentEvent[]): void {
    for (const event of events) {
      if (event.seq <= shard.throughSeq) continue;
      if (event.type === 'turn/started') shard.turns += 1;
      const turnPosition = shard.turns - 1;
      for (const document of searchDocumentsOf(event))
        if (!shard.index.has(document.id))
          shard.index.add(document.turnId && turnPosition >= 0 ? { ...document, turnPosition } : document);
      shard.throughSeq = event.seq;
      shard.dirty = true;
    }
  }

  private scheduleSave(): void {
    if (this.saveScheduled) return;
    this.saveScheduled = true;
    this.options.setTimer(() => {
      this.saveScheduled = false;
      void this.save().catch((error: unknown) => console.warn('Could not store the search index:', error));
    }, this.options.saveDelayMs ?? 2_000);
  }

  private async hit(session: SessionRecord, result: MiniSearchResult): Promise<SearchHit> {
    const seq = result.seq as number;
    const [event] = await this.options.log.read(session.sessionId, seq - 1, 1);
    const document = event ? searchDocumentsOf(event).find((candidate) => candidate.id === result.id) : undefined;
    const turnId = result.turnId as string | undefined;
    const turnPosition = result.turnPosition as number | undefined;
    return {
      sessionId: session.sessionId,
      title: session.title,
      seq,
      ...(turnId ? { turnId } : {}),
      ...(turnPosition !== undefined ? { turnPosition } : {}),
      kind: result.kind as SearchHit['kind'],
      snippet: document ? searchSnippet(document.text, result.terms) : '',
      terms: result.terms,
      score: result.score,
      updatedAt: session.updatedAt,
    };
  }
}

/** Typos are forgiven in longer words only: "prase" finds "parse", "cat" does not find "car". */
function fuzziness(term: string): number {
  return term.length >= 5 ? 0.2 : 0;
}
