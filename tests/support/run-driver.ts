import type { AgentEvent, AgentEventDraft } from '../../lib/protocol/agent-event';
import type { JsonValue } from '../../lib/protocol/json-value';
import { MemoryEventStore } from '../../lib/session-log/memory-event-store';
import type { ToolExecutionRequest, ToolExecutionResult } from '../../lib/protocol/tool-execution-request';
import type { Runtime } from '../../lib/runtime/runtime';
import type { ToolOutput } from '../../lib/protocol/tool-output';
import { testRuntime } from './test-runtime';

export interface CapturedSnapshot {
  /** How many live events had been broadcast when the snapshot was taken. */
  position: number;
  snapshotSeq: number;
  events: AgentEvent[];
}

/**
 * Drives a real Runtime over a MemoryEventStore the way the side panel and the background do,
 * and records what a subscriber that never disconnects would have seen.
 */
export class RunDriver {
  readonly store = new MemoryEventStore();
  readonly live: AgentEvent[] = [];
  readonly restarts: number[] = [];
  readonly snapshots: CapturedSnapshot[] = [];
  /** How often the tool executor ran, per toolCallId. */
  readonly executions = new Map<string, number>();
  /** What the executor answers, per toolCallId; unknown calls succeed. */
  readonly outcomes = new Map<string, ToolOutput>();
  runtime: Runtime;
  private clock = 1_700_000_000_000;
  private counter = 0;

  constructor(readonly sessionId: string) {
    this.runtime = this.newRuntime();
  }

  now = (): number => {
    this.clock += 7;
    return this.clock;
  };

  newId = (prefix = 'id'): string => {
    this.counter += 1;
    return `${prefix}-${this.counter}`;
  };

  /** Subscribes the never-disconnecting observer; call once after construction and after every restart. */
  async attach(): Promise<void> {
    await this.runtime.subscribe(this.sessionId, (event) => this.live.push(event));
  }

  append(drafts: AgentEventDraft[]): Promise<number> {
    return this.runtime.append(this.sessionId, drafts);
  }

  executeTool(request: Omit<ToolExecutionRequest, 'sessionId'>): Promise<ToolExecutionResult> {
    return this.runtime.executeTool({ sessionId: this.sessionId, ...request });
  }

  /** The background restarts: a new Runtime over the same store, with nothing in memory. */
  async restart(): Promise<void> {
    this.runtime = this.newRuntime();
    this.restarts.push(this.live.length);
    await this.attach();
  }

  /** Takes a real subscription snapshot, as a reconnecting panel would get it. */
  async captureSnapshot(): Promise<void> {
    const subscription = await this.runtime.subscribe(this.sessionId, () => undefined);
    subscription.unsubscribe();
    this.snapshots.push({
      position: this.live.length,
      snapshotSeq: subscription.snapshotSeq,
      events: subscription.snapshot,
    });
  }

  private newRuntime(): Runtime {
    return testRuntime({
      store: this.store,
      executeTool: async (_toolName: string, input: JsonValue, _callKey, request) => {
        // A retry's attempt runs with the same input under its own id: count it by that id.
        const inputCallId =
          typeof input === 'object' && input !== null && !Array.isArray(input) ? String(input.callId) : '';
        const toolCallId = request.retryOf ? request.toolCallId : inputCallId;
        this.executions.set(toolCallId, (this.executions.get(toolCallId) ?? 0) + 1);
        await Promise.resolve();
        return this.outcomes.get(toolCallId) ?? { ok: true, callId: toolCallId };
      },
      now: this.now,
      newId: () => this.newId(),
    });
  }
}
