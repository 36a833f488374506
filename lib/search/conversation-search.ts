import { Charset, Encoder, Index } from 'flexsearch';
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
import { matchedTerms } from './matched-terms';
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

/** What the index knows of one conversation. Its texts are in the index and the stored row, not kept here. */
interface Shard {
  sessionId: string;
  /** The index's ids of this conversation's texts, to take them out when it is deleted. */
  ids: number[];
  throughSeq: number;
  /** Turns started up to `throughSeq`: a text's turn is found by its place among them. */
  turns: number;
  /** The seq the stored row covers, and the texts past it that the next save appends. */
  savedThroughSeq: number;
  unsaved: SearchDocument[];
}

/** Where an id of the index points: the conversation and the text, without the text. */
type Located = Omit<SearchDocument, 'text'> & { sessionId: string };

/**
 * Full-text search over every conversation: one FlexSearch index over all their texts (titles, messages, tool
 * calls, page titles), so a query walks one index however many conversations there are, and stops at the best
 * `limit` instead of scoring every text that matches. Each conversation's texts are kept in IndexedDB with the
 * seq they cover. The index is derived from the log and only ever catches up with it: committed events are added as
 * they commit while their conversation is loaded, a query first adds what the log has past each conversation, and a
 * stored row that cannot be read is rebuilt from the log. The worker can stop at any time, so conversations load on
 * demand, newest first, within a time budget per query.
 */
export class ConversationSearch {
  // Spellings that sound alike are one word ("invoyce", "sumarize", "ledjer"); Soundex would be kinder to typos
  // but makes a short word such as "tide" match every word that starts with a t.
  private readonly encoder = new Encoder(Charset.LatinAdvanced);
  // `fastupdate` keeps where each id is, so a deleted conversation's texts come out without a walk of the index.
  private readonly index = new Index({ tokenize: 'forward', encoder: this.encoder, fastupdate: true });
  private readonly located = new Map<number, Located>();
  private readonly shards = new Map<string, Shard>();
  private nextId = 1;
  private saveScheduled = false;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ConversationSearchOptions) {}

  query(text: string, limit = 20): Promise<SearchResult> {
    return this.serially(() => this.search(text, limit));
  }

  /** The events a commit stored: added at once to a loaded conversation that is exactly behind them, else left to catch up. */
  noteCommitted(sessionId: string, events: readonly AgentEvent[]): void {
    const shard = this.shards.get(sessionId);
    if (!shard || events.length === 0 || events[0]!.seq !== shard.throughSeq + 1) return;
    this.addEvents(shard, events);
    this.scheduleSave();
  }

  async forget(sessionId: string): Promise<void> {
    this.unload(sessionId);
    await this.options.shards.delete(sessionId);
  }

  /** Writes every conversation's texts added since they were last written. */
  save(): Promise<void> {
    return this.serially(() => this.saveNow());
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async saveNow(): Promise<void> {
    const rows: SearchShardRow[] = [];
    const stale: string[] = [];
    for (const shard of this.shards.values()) {
      if (shard.throughSeq === shard.savedThroughSeq) continue;
      const stored = shard.savedThroughSeq === 0 ? [] : await this.storedDocuments(shard);
      const { unsaved } = shard;
      shard.unsaved = [];
      shard.savedThroughSeq = shard.throughSeq;
      if (!stored) stale.push(shard.sessionId);
      else
        rows.push({
          sessionId: shard.sessionId,
          throughSeq: shard.throughSeq,
          turns: shard.turns,
          format: SEARCH_SHARD_FORMAT,
          documents: stored.concat(unsaved),
        });
    }
    if (rows.length > 0) await this.options.shards.put(rows);
    // A row that is not the one this shard was loaded from cannot be appended to: the next load rebuilds it.
    for (const sessionId of stale) await this.options.shards.delete(sessionId);
  }

  private async storedDocuments(shard: Shard): Promise<SearchDocument[] | undefined> {
    const parsed = searchShardRowSchema.safeParse(await this.options.shards.read(shard.sessionId));
    return parsed.success && parsed.data.throughSeq === shard.savedThroughSeq ? parsed.data.documents : undefined;
  }

  private async search(text: string, limit: number): Promise<SearchResult> {
    const started = this.options.now();
    const sessions = (await this.options.log.listSessions()).sort((left, right) => right.updatedAt - left.updatedAt);
    const live = new Map(sessions.map((session) => [session.sessionId, session]));
    for (const sessionId of [...this.shards.keys()]) if (!live.has(sessionId)) this.unload(sessionId);
    const budgetEnds = started + (this.options.loadBudgetMs ?? 400);
    let searched = 0;
    for (const session of sessions) {
      const shard =
        this.shards.get(session.sessionId) ?? (this.options.now() < budgetEnds ? await this.load(session) : undefined);
      if (!shard) continue;
      if (session.lastSeq > shard.throughSeq) await this.catchUp(session.sessionId, shard);
      searched += 1;
    }
    this.scheduleSave();
    const query = text.trim();
    // FlexSearch answers `undefined` for a word whose every text was removed.
    const ids = query === '' ? [] : ((this.index.search(query, { limit }) as number[] | undefined) ?? []);
    const found = ids.flatMap((id, rank) => {
      const place = this.located.get(id);
      const session = place && live.get(place.sessionId);
      return place && session ? [{ place, session, score: ids.length - rank }] : [];
    });
    const hits = await Promise.all(found.map(({ place, session, score }) => this.hit(session, place, query, score)));
    return {
      hits,
      conversations: searched,
      pending: sessions.length - searched,
      elapsedMs: this.options.now() - started,
    };
  }

  private async load(session: SessionRecord): Promise<Shard> {
    const parsed = searchShardRowSchema.safeParse(await this.options.shards.read(session.sessionId));
    const shard: Shard = {
      sessionId: session.sessionId,
      ids: [],
      throughSeq: 0,
      turns: 0,
      savedThroughSeq: 0,
      unsaved: [],
    };
    this.shards.set(session.sessionId, shard);
    // A row that cannot be read (or of an older format) is rebuilt from the log by the catch-up that follows.
    if (!parsed.success) return shard;
    for (const document of parsed.data.documents) this.addDocument(shard, document);
    shard.throughSeq = shard.savedThroughSeq = parsed.data.throughSeq;
    shard.turns = parsed.data.turns;
    return shard;
  }

  private unload(sessionId: string): void {
    const shard = this.shards.get(sessionId);
    if (!shard) return;
    for (const id of shard.ids) {
      this.index.remove(id);
      this.located.delete(id);
    }
    this.shards.delete(sessionId);
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
      for (const document of searchDocumentsOf(event)) {
        const placed = document.turnId && turnPosition >= 0 ? { ...document, turnPosition } : document;
        this.addDocument(shard, placed);
        shard.unsaved.push(placed);
      }
      shard.throughSeq = event.seq;
    }
  }

  private addDocument(shard: Shard, document: SearchDocument): void {
    const id = this.nextId++;
    const { text, ...place } = document;
    this.index.add(id, text);
    this.located.set(id, { ...place, sessionId: shard.sessionId });
    shard.ids.push(id);
  }

  private scheduleSave(): void {
    if (this.saveScheduled) return;
    this.saveScheduled = true;
    this.options.setTimer(() => {
      this.saveScheduled = false;
      void this.save().catch((error: unknown) => console.warn('Could not store the search index:', error));
    }, this.options.saveDelayMs ?? 2_000);
  }

  private async hit(session: SessionRecord, place: Located, query: string, score: number): Promise<SearchHit> {
    const [event] = await this.options.log.read(session.sessionId, place.seq - 1, 1);
    const document = event ? searchDocumentsOf(event).find((candidate) => candidate.id === place.id) : undefined;
    const terms = document ? matchedTerms(document.text, query, this.encoder) : [];
    return {
      sessionId: session.sessionId,
      title: session.title,
      seq: place.seq,
      ...(place.turnId ? { turnId: place.turnId } : {}),
      ...(place.turnPosition !== undefined ? { turnPosition: place.turnPosition } : {}),
      kind: place.kind,
      snippet: document ? searchSnippet(document.text, terms) : '',
      terms,
      score,
      updatedAt: session.updatedAt,
    };
  }
}
