import type { AgentEvent } from '../protocol/agent-event';

export interface BatcherScheduler {
  requestFrame(callback: () => void): void;
  setTimer(callback: () => void, delayMs: number): void;
}

const MAX_QUEUED = 2_000;
const FALLBACK_DELAY_MS = 100;

function isDelta(event: AgentEvent): boolean {
  return !event.durable;
}

/**
 * Queues transient deltas and hands them over once per animation frame (with a timer fallback for
 * hidden panels, and a size bound); any durable event flushes the queue at once, in order.
 */
export class EventBatcher {
  private queue: AgentEvent[] = [];
  private scheduled = false;

  constructor(
    private readonly apply: (events: AgentEvent[]) => void,
    private readonly scheduler: BatcherScheduler,
  ) {}

  push(event: AgentEvent): void {
    this.queue.push(event);
    if (!isDelta(event) || this.queue.length >= MAX_QUEUED) {
      this.flush();
      return;
    }
    if (this.scheduled) return;
    this.scheduled = true;
    this.scheduler.requestFrame(() => this.flush());
    this.scheduler.setTimer(() => this.flush(), FALLBACK_DELAY_MS);
  }

  flush(): void {
    this.scheduled = false;
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    this.apply(batch);
  }
}
