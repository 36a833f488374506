import type { AgentEvent } from '../protocol/agent-event';
import type { PublisherMessage } from '../protocol/runtime-message';
import { EventBatcher, type BatcherScheduler } from './event-batcher';
import { initialClientState, type ClientState } from './client-state';
import { reduceEvents, replayLog } from './reduce-events';
import { stateFromSnapshot, withOlderTurns } from './state-snapshot';

export interface SyncTransport {
  subscribe(sessionId: string, generation: number): void;
  readTail(sessionId: string, afterSeq: number): Promise<AgentEvent[]>;
  /** Asks for the `limit` turns before position `before`; answered by an `events/turns` message. */
  requestTurns(sessionId: string, generation: number, before: number, limit: number): void;
}

/** Turns per page while the reader scrolls up, and per page when the whole history is needed (to send). */
export const PAGE_TURNS = 24;
const WHOLE_HISTORY_PAGE_TURNS = 500;

/**
 * Keeps one session's client state in step with the runtime: snapshot, then live events of the
 * current connection generation only; a gap is filled from the log's tail, else by a full reload.
 */
export class SessionSync {
  private state: ClientState;
  private generation = 0;
  private readonly batcher: EventBatcher;
  private fillingGap = false;
  private requesting = false;
  private pageWaiters: { resolve(): void; reject(error: Error): void }[] = [];
  private closed = false;

  constructor(
    private readonly sessionId: string,
    private readonly transport: SyncTransport,
    private readonly onChange: (state: ClientState) => void,
    scheduler: BatcherScheduler,
    /** The runtime could not hand out this session: the panel says so and offers to try again. */
    private readonly onFailure: (message: string) => void = () => {},
  ) {
    this.state = initialClientState(sessionId);
    this.batcher = new EventBatcher((events) => this.apply(events), scheduler);
  }

  get current(): ClientState {
    return this.state;
  }

  connect(): void {
    this.generation += 1;
    this.transport.subscribe(this.sessionId, this.generation);
  }

  /**
   * The panel left this conversation: a frame or tail read still scheduled must not hand its state over the next
   * conversation's, and a wait for a page ends.
   */
  close(): void {
    this.closed = true;
    for (const waiter of this.pageWaiters.splice(0)) waiter.reject(new Error('The conversation was closed.'));
  }

  receive(message: PublisherMessage): void {
    if (this.closed || message.type === 'turn/cancel') return;
    if (message.type === 'events/error') {
      if (message.sessionId === this.sessionId && message.generation === this.generation) this.failed(message.message);
      return;
    }
    if (message.generation !== this.generation) return;
    if (message.type === 'events/snapshot') {
      if (message.sessionId !== this.sessionId) return;
      this.batcher.flush();
      this.state =
        message.state && message.state.sessionId === this.sessionId
          ? reduceEvents(stateFromSnapshot(message.state, this.generation), message.events)
          : replayLog(this.sessionId, message.events, this.generation);
      this.onChange(this.state);
      this.pageAnswered();
      return;
    }
    if (message.type === 'events/turns') {
      if (message.sessionId === this.sessionId) this.receiveTurns(message);
      return;
    }
    if (message.event.sessionId === this.sessionId) this.batcher.push(message.event);
  }

  /** Asks for the page of turns before the loaded ones, unless one is on its way or none is left. */
  loadOlder(limit = PAGE_TURNS): void {
    if (this.state.olderTurns === 0 || this.requesting || !this.generation) return;
    this.requesting = true;
    this.transport.requestTurns(this.sessionId, this.generation, this.state.olderTurns, limit);
  }

  /** The state with every turn of the conversation loaded, page by page (the model's history needs them all). */
  async loadAll(): Promise<ClientState> {
    while (this.state.olderTurns > 0) {
      const answered = new Promise<void>((resolve, reject) => this.pageWaiters.push({ resolve, reject }));
      this.loadOlder(WHOLE_HISTORY_PAGE_TURNS);
      await answered;
    }
    return this.state;
  }

  /**
   * A page joins only a state at its seq with nothing waiting, and right before the loaded turns: events after it
   * arrive after it on the same port, and an event before it for a turn not loaded yet was left out here and is
   * in the page. Any other page is dropped; the next scroll asks again.
   */
  private receiveTurns(page: Extract<PublisherMessage, { type: 'events/turns' }>): void {
    this.batcher.flush();
    const { state } = this;
    if (page.lastSeq === state.lastSeq && !state.gap && page.before === state.olderTurns) {
      this.state = withOlderTurns(state, page.turns, page.olderTurns);
      this.onChange(this.state);
    }
    this.pageAnswered();
  }

  private pageAnswered(): void {
    this.requesting = false;
    for (const waiter of this.pageWaiters.splice(0)) waiter.resolve();
  }

  /** An error before this connection's snapshot is the subscription's, after it a page's; any wait for a page ends. */
  private failed(message: string): void {
    this.requesting = false;
    for (const waiter of this.pageWaiters.splice(0)) waiter.reject(new Error(message));
    if (this.state.generation !== this.generation) this.onFailure(message);
  }

  private apply(events: AgentEvent[]): void {
    if (this.closed) return;
    this.state = reduceEvents(this.state, events);
    this.onChange(this.state);
    if (this.state.gap) void this.fillGap();
  }

  private async fillGap(): Promise<void> {
    if (this.fillingGap) return;
    this.fillingGap = true;
    try {
      const tail = await this.transport.readTail(this.sessionId, this.state.lastSeq);
      if (this.closed) return;
      this.state = reduceEvents(this.state, tail);
      this.onChange(this.state);
    } catch {
      // The tail could not be read; the full reload below recovers.
    } finally {
      this.fillingGap = false;
    }
    if (this.state.gap && !this.closed) this.connect();
  }
}
