import type { AgentEvent } from '../protocol/agent-event';
import type { PublisherMessage } from '../protocol/runtime-message';
import { EventBatcher, type BatcherScheduler } from './event-batcher';
import { initialClientState, type ClientState } from './client-state';
import { reduceEvents, replayLog } from './reduce-events';
import { stateFromSnapshot } from './session-snapshot';

export interface SyncTransport {
  subscribe(sessionId: string, generation: number): void;
  readTail(sessionId: string, afterSeq: number): Promise<AgentEvent[]>;
}

/**
 * Keeps one session's client state in step with the runtime: snapshot, then live events of the
 * current connection generation only; a gap is filled from the log's tail, else by a full reload.
 */
export class SessionSync {
  private state: ClientState;
  private generation = 0;
  private readonly batcher: EventBatcher;
  private fillingGap = false;

  constructor(
    private readonly sessionId: string,
    private readonly transport: SyncTransport,
    private readonly onChange: (state: ClientState) => void,
    scheduler: BatcherScheduler,
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

  receive(message: PublisherMessage): void {
    if (message.type === 'events/error' || message.type === 'turn/cancel') return;
    if (message.generation !== this.generation) return;
    if (message.type === 'events/snapshot') {
      if (message.sessionId !== this.sessionId) return;
      this.batcher.flush();
      this.state =
        message.state && message.state.sessionId === this.sessionId
          ? reduceEvents(stateFromSnapshot(message.state, this.generation), message.events)
          : replayLog(this.sessionId, message.events, this.generation);
      this.onChange(this.state);
      return;
    }
    this.batcher.push(message.event);
  }

  private apply(events: AgentEvent[]): void {
    this.state = reduceEvents(this.state, events);
    this.onChange(this.state);
    if (this.state.gap) void this.fillGap();
  }

  private async fillGap(): Promise<void> {
    if (this.fillingGap) return;
    this.fillingGap = true;
    try {
      const tail = await this.transport.readTail(this.sessionId, this.state.lastSeq);
      this.state = reduceEvents(this.state, tail);
      this.onChange(this.state);
    } catch {
      // The tail could not be read; the full reload below recovers.
    } finally {
      this.fillingGap = false;
    }
    if (this.state.gap) this.connect();
  }
}
