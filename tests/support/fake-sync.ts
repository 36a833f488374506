import type { AgentEvent } from '../../lib/protocol/agent-event';
import type { BatcherScheduler } from '../../lib/state/event-batcher';
import type { SyncTransport } from '../../lib/state/session-sync';

/** Frames and timers that run only when a test says so. */
export class ManualScheduler implements BatcherScheduler {
  frames: (() => void)[] = [];
  timers: { callback: () => void; delayMs: number }[] = [];

  requestFrame(callback: () => void): void {
    this.frames.push(callback);
  }

  setTimer(callback: () => void, delayMs: number): void {
    this.timers.push({ callback, delayMs });
  }

  runFrames(): void {
    const frames = this.frames;
    this.frames = [];
    for (const frame of frames) frame();
  }

  runTimers(): void {
    const timers = this.timers;
    this.timers = [];
    for (const timer of timers) timer.callback();
  }
}

/** A transport whose subscriptions are recorded and whose tail reads answer from a log the test controls. */
export class FakeTransport implements SyncTransport {
  readonly subscriptions: { sessionId: string; generation: number }[] = [];
  readonly tailReads: { sessionId: string; afterSeq: number }[] = [];
  /** The durable log the runtime would read from; events missing here are lost for good. */
  log: AgentEvent[] = [];
  failTail = false;
  readonly turnRequests: { sessionId: string; generation: number; before: number; limit: number }[] = [];

  subscribe(sessionId: string, generation: number): void {
    this.subscriptions.push({ sessionId, generation });
  }

  requestTurns(sessionId: string, generation: number, before: number, limit: number): void {
    this.turnRequests.push({ sessionId, generation, before, limit });
  }

  async readTail(sessionId: string, afterSeq: number): Promise<AgentEvent[]> {
    this.tailReads.push({ sessionId, afterSeq });
    if (this.failTail) throw new Error('Could not establish connection. Receiving end does not exist.');
    return this.log.filter((event) => event.sessionId === sessionId && event.seq > afterSeq);
  }

  get lastGeneration(): number {
    return this.subscriptions.at(-1)?.generation ?? 0;
  }
}

/** Lets pending promise callbacks (a tail read and what follows it) run. */
export async function settle(): Promise<void> {
  for (let round = 0; round < 5; round++) await new Promise((resolve) => setImmediate(resolve));
}
