import type { AgentEvent, AgentEventDraft, AgentEventOf, AgentEventType } from '../protocol/agent-event';
import type { SessionLock } from './session-lock';
import type { SessionProjection, SessionStates } from './session-projection';

export type SessionReaction<TType extends AgentEventType> = (event: AgentEventOf<TType>) => void;

/** What a feature does with the log beside its projection; the log runs each hook in registration order. */
export interface SessionFeature {
  /** Drafts recorded in the same transaction as `events` (a turn that ends settles what it left open). */
  followUps?(sessionId: string, events: readonly AgentEvent[], time: number, states: SessionStates): AgentEventDraft[];
  /** Told of each committed event of its type after every listener; it must not throw. */
  reactions?: { [TType in AgentEventType]?: SessionReaction<TType> };
  /** A session was loaded into memory (first use, or after a restart). */
  loaded?(sessionId: string, states: SessionStates): void;
  /** A session was deleted. */
  forgotten?(sessionId: string): void;
}

/** What a feature's controller is built on: the session lock, the one way to write, its projection, its hooks. */
export interface SessionLogAccess {
  readonly lock: SessionLock;
  /** Stamps and records drafts; the caller holds the session's lock. */
  commit(sessionId: string, drafts: AgentEventDraft[]): Promise<void>;
  state<TState>(sessionId: string, projection: SessionProjection<TState>): Promise<TState>;
  loadedSessions(): string[];
  register(feature: SessionFeature): void;
}

/** The clock and ids every controller takes from the runtime. */
export interface FeatureClock {
  now(): number;
  newId(): string;
}
