import type { AgentEventDraft } from '../protocol/agent-event';

/** Sends emitted events to the runtime in order, batching whatever piles up while a send is in flight. */
export class EventOutbox {
  private queue: AgentEventDraft[] = [];
  private sending: Promise<void> | undefined;
  private failure: Error | undefined;

  constructor(private readonly send: (drafts: AgentEventDraft[]) => Promise<void>) {}

  emit(drafts: AgentEventDraft[]): void {
    this.queue.push(...drafts);
    this.sending ??= this.drain();
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        await this.send(batch);
      }
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error));
      this.queue = [];
    } finally {
      this.sending = undefined;
    }
  }

  async flush(): Promise<void> {
    while (this.sending) await this.sending;
    if (this.failure) {
      const failure = this.failure;
      this.failure = undefined;
      throw failure;
    }
  }
}
