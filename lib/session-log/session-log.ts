import {
  AGENT_EVENT_SCHEMA_VERSION,
  agentEventSchema,
  isDurableType,
  type AgentEvent,
  type AgentEventDraft,
  type AgentEventType,
} from '../protocol/agent-event';
import { issuesText } from '../protocol/issue-text';
import type { SessionRecord } from '../protocol/session-record';
import type { SessionSnapshot, TurnSlice } from '../protocol/session-snapshot';
import { reduceEvents } from '../state/reduce-events';
import { sliceTurns, takeSnapshot } from '../state/state-snapshot';
import type { EventStore } from './event-store';
import { OPEN_WORK, type OpenWork } from './open-work';
import type { SessionFeature, SessionLogAccess } from './session-feature';
import { SessionLock } from './session-lock';
import type { SessionProjection, SessionStates } from './session-projection';
import { stateOfRows } from './snapshot-advance';
import { SnapshotKeeper, type SnapshotKeeperOptions } from './snapshot-keeper';

export type EventListener = (event: AgentEvent) => void;

export interface SessionLogOptions {
  store: EventStore;
  now(): number;
  /** The features' projections, in the order each event reaches them (after the log's own open work). */
  projections: readonly SessionProjection<unknown>[];
  /** Keep a snapshot per session (every N durable events, written a while later); none when absent. */
  snapshots?: Omit<SnapshotKeeperOptions, 'store' | 'book'> & {
    /** How many of the last turns a subscription hands out (WINDOW_TURNS unless told). */
    windowTurns?: number;
  };
  /** Told of each event as it is recorded (never of a replay), after every reaction; it must not throw. */
  onRecorded?(event: AgentEvent): void;
}

export interface Subscription {
  /** The log after `state` (all of it without one), then the transient tail of open items. */
  snapshot: AgentEvent[];
  snapshotSeq: number;
  /** The reduced state of the log's start, when a usable snapshot is stored. */
  state?: SessionSnapshot;
  unsubscribe(): void;
}

/** Older turns of a session, reduced up to `lastSeq`: the page before `before` (a position in the conversation). */
export interface TurnPage {
  before: number;
  olderTurns: number;
  turns: TurnSlice[];
  lastSeq: number;
}

/** How many of the last turns a subscription hands out; older ones are asked for by page. */
export const WINDOW_TURNS = 24;

interface LoadedSession extends SessionStates {
  lastSeq: number;
  lastBatchId: string | undefined;
  listeners: Set<EventListener>;
}

/**
 * The log core: one writer per session under its lock, `seq` stamped and counted across restarts, durable events
 * committed in one transaction per batch, then projected, broadcast and reacted to, in that order; sessions
 * loaded from their snapshot and the log after it; subscriptions handed out atomically with the log so far.
 */
export class SessionLog implements SessionLogAccess {
  readonly lock = new SessionLock();
  private readonly sessions = new Map<string, LoadedSession>();
  private readonly loading = new Map<string, Promise<LoadedSession>>();
  private readonly projections: readonly SessionProjection<unknown>[];
  private readonly features: SessionFeature[] = [];
  private readonly snapshots: SnapshotKeeper | undefined;

  constructor(private readonly options: SessionLogOptions) {
    const { store } = options;
    this.projections = [OPEN_WORK, ...options.projections];
    const book = this.projections.filter((projection) => projection.stored);
    this.snapshots =
      options.snapshots && store.snapshots ? new SnapshotKeeper({ ...options.snapshots, store, book }) : undefined;
  }

  /** Adds a feature's follow-ups, reactions and load hooks after those registered before it. */
  register(feature: SessionFeature): void {
    this.features.push(feature);
  }

  /** A projection's state for a session, loading the session if needed (outside the lock too: loads are shared). */
  async state<TState>(sessionId: string, projection: SessionProjection<TState>): Promise<TState> {
    return (await this.load(sessionId)).of(projection);
  }

  openWork(sessionId: string): Promise<OpenWork> {
    return this.state(sessionId, OPEN_WORK);
  }

  loadedSessions(): string[] {
    return [...this.sessions.keys()];
  }

  /**
   * Validates, stamps and records events a client proposes; rejects the whole batch on any invalid one. A batch
   * whose id is the last one recorded is not recorded again; `keep` drops drafts the log already settled.
   */
  append(
    sessionId: string,
    drafts: readonly unknown[],
    batchId?: string,
    keep: (draft: AgentEventDraft, states: SessionStates) => boolean = () => true,
  ): Promise<number> {
    return this.lock.run(sessionId, async () => {
      const session = await this.load(sessionId);
      if (batchId !== undefined && batchId === session.lastBatchId) return session.lastSeq;
      const fresh = (drafts as AgentEventDraft[]).filter((draft) => keep(draft, session));
      const stamped = this.stamp(session, fresh).map((candidate, index) => {
        const parsed = agentEventSchema.safeParse(candidate);
        if (parsed.success && parsed.data.sessionId === sessionId) return parsed.data;
        const reason = parsed.success
          ? `sessionId: belongs to another session (${parsed.data.sessionId})`
          : issuesText(parsed.error.issues);
        throw new Error(`Event ${index} (${String(candidate.type)}) rejected: ${reason}`);
      });
      await this.commitStamped(sessionId, session, stamped, batchId);
      return session.lastSeq;
    });
  }

  /** Stamps and records drafts the runtime writes itself; the caller holds the session's lock. */
  async commit(sessionId: string, drafts: AgentEventDraft[]): Promise<void> {
    const session = await this.load(sessionId);
    await this.commitStamped(sessionId, session, this.stamp(session, drafts));
  }

  /**
   * Hands out, atomically, the log so far, its last seq and every later event: with snapshots, the last turns of
   * the snapshot (and every turn the log after it touches) and that log; without, the whole log.
   */
  subscribe(sessionId: string, listener: EventListener): Promise<Subscription> {
    return this.lock.run(sessionId, async () => {
      const session = await this.load(sessionId);
      const window = await this.openWindow(sessionId, session.lastSeq);
      const durable = window?.tail ?? (await this.options.store.read(sessionId, 0));
      this.snapshots?.noted(sessionId, durable.length);
      session.listeners.add(listener);
      return {
        snapshot: [...durable, ...session.of(OPEN_WORK).transientTail()],
        snapshotSeq: session.lastSeq,
        ...(window ? { state: window.state } : {}),
        unsubscribe: () => session.listeners.delete(listener),
      };
    });
  }

  private async openWindow(
    sessionId: string,
    lastSeq: number,
  ): Promise<{ state: SessionSnapshot; tail: AgentEvent[] } | undefined> {
    const keeper = this.snapshots;
    const at = await keeper?.withTail(sessionId, lastSeq);
    if (!keeper || !at) return undefined;
    const { head } = at;
    const first = Math.min(
      Math.max(0, head.turnCount - (this.options.snapshots?.windowTurns ?? WINDOW_TURNS)),
      ...at.touched.map((row) => row.position),
    );
    const rows = await keeper.turnRows(sessionId, lastSeq, () =>
      this.options.store.snapshots!.readTurns(sessionId, first, head.turnCount),
    );
    const state = rows && takeSnapshot(stateOfRows(head, rows));
    return state && { state, tail: at.tail };
  }

  /** The turns before position `before`, up to `limit` of them, as they are at the log's last seq. */
  turnsBefore(sessionId: string, before: number, limit: number): Promise<TurnPage> {
    return this.lock.run(sessionId, async () => {
      const { lastSeq } = await this.load(sessionId);
      const from = Math.max(0, before - limit);
      const at = await this.snapshots?.withTail(sessionId, lastSeq);
      const rows =
        at &&
        (await this.snapshots!.turnRows(sessionId, lastSeq, () =>
          this.options.store.snapshots!.readTurns(sessionId, from, before),
        ));
      if (!at || !rows) return { before, olderTurns: before, turns: [], lastSeq };
      const state = reduceEvents(stateOfRows(at.head, rows), at.tail);
      const turns = sliceTurns(
        state,
        rows.map((row) => row.turnId),
      );
      return { before, olderTurns: from, turns, lastSeq: state.lastSeq };
    });
  }

  read(sessionId: string, afterSeq: number, limit?: number): Promise<AgentEvent[]> {
    return this.options.store.read(sessionId, afterSeq, limit);
  }

  /** A call's own lifecycle: approvals and asks carry its toolCallId too, but only tool/* events tell whether it ran. */
  async toolEvents(sessionId: string, toolCallId: string): Promise<AgentEvent[]> {
    return (await this.options.store.readToolCall(sessionId, toolCallId)).filter((event) =>
      event.type.startsWith('tool/'),
    );
  }

  listSessions(): Promise<SessionRecord[]> {
    return this.options.store.listSessions();
  }

  /** Deletes a session's log, unless `refusal` finds a reason not to. */
  deleteSession(sessionId: string, refusal: (states: SessionStates) => string | undefined): Promise<void> {
    return this.lock.run(sessionId, async () => {
      const reason = refusal(await this.load(sessionId));
      if (reason) throw new Error(reason);
      await this.options.store.deleteSession(sessionId);
      this.sessions.delete(sessionId);
      this.snapshots?.forget(sessionId);
      for (const feature of this.features) feature.forgotten?.(sessionId);
    });
  }

  private stamp(session: LoadedSession, drafts: readonly AgentEventDraft[], afterSeq = session.lastSeq): AgentEvent[] {
    let seq = afterSeq;
    return drafts.map((draft) => {
      const durable = isKnownType(draft?.type) && isDurableType(draft.type);
      if (durable) seq += 1;
      return { ...draft, schemaVersion: AGENT_EVENT_SCHEMA_VERSION, seq, durable } as AgentEvent;
    });
  }

  /** Persists the durable events (and their follow-ups) in one transaction, then counts, projects, broadcasts, reacts. */
  private async commitStamped(
    sessionId: string,
    session: LoadedSession,
    proposed: AgentEvent[],
    batchId?: string,
  ): Promise<void> {
    const time = this.options.now();
    const followUps = this.features.flatMap((feature) => feature.followUps?.(sessionId, proposed, time, session) ?? []);
    const lastProposed = proposed.findLast((event) => event.durable)?.seq ?? session.lastSeq;
    const events = followUps.length > 0 ? [...proposed, ...this.stamp(session, followUps, lastProposed)] : proposed;
    const durable = events.filter((event) => event.durable);
    if (durable.length > 0) await this.options.store.append(sessionId, durable, batchId);
    if (durable.length > 0) this.snapshots?.noted(sessionId, durable.length);
    if (batchId !== undefined) session.lastBatchId = batchId;
    for (const event of events) {
      if (event.durable) session.lastSeq = event.seq;
      this.project(session, event);
      for (const listener of session.listeners) {
        // A listener that throws (a port that went away) must not stop the counter or the other listeners.
        try {
          listener(event);
        } catch {
          session.listeners.delete(listener);
        }
      }
      for (const feature of this.features) feature.reactions?.[event.type]?.(event as never);
      this.options.onRecorded?.(event);
    }
  }

  private project(session: LoadedSession, event: AgentEvent): void {
    for (const projection of this.projections) projection.project(session.of(projection), event);
  }

  /** One load per session even when two callers ask at once (jobs read their ledger outside the lock). */
  private load(sessionId: string): Promise<LoadedSession> {
    const known = this.sessions.get(sessionId);
    if (known) return Promise.resolve(known);
    const pending = this.loading.get(sessionId) ?? this.loadFromStore(sessionId);
    this.loading.set(sessionId, pending);
    void pending.finally(() => this.loading.delete(sessionId)).catch(() => undefined);
    return pending;
  }

  /** From the session's snapshot and the log after it when snapshots are kept: never the whole log then. */
  private async loadFromStore(sessionId: string): Promise<LoadedSession> {
    const { store } = this.options;
    const lastSeq = await store.lastSeq(sessionId);
    const at = await this.snapshots?.withTail(sessionId, lastSeq);
    const states = new Map(this.projections.map((projection) => [projection, projection.start(at?.head)]));
    const session: LoadedSession = {
      lastSeq,
      lastBatchId: await store.lastBatchId(sessionId),
      listeners: new Set(),
      of: <TState>(projection: SessionProjection<TState>) => {
        if (!states.has(projection as SessionProjection<unknown>)) throw new Error('No such projection in this log.');
        return states.get(projection as SessionProjection<unknown>) as TState;
      },
    };
    for (const event of at?.tail ?? (await store.read(sessionId, 0))) this.project(session, event);
    this.sessions.set(sessionId, session);
    for (const feature of this.features) feature.loaded?.(sessionId, session);
    return session;
  }
}

const knownTypes = new Set<string>(agentEventSchema.options.map((option) => option.shape.type.value));

function isKnownType(type: string | undefined): type is AgentEventType {
  return type !== undefined && knownTypes.has(type);
}
