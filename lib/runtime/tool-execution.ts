import type { AgentEvent, AgentEventDraft } from '../protocol/agent-event';
import type { JsonValue } from '../protocol/json-value';
import type { ToolExecutionRequest, ToolExecutionResult } from '../protocol/tool-execution-request';
import type { ApprovalRequirement } from '../tool-family/approval-policy';
import { sideEffectOf } from '../tools/tool-registry';
import { retryRequirement } from '../tools/approval-requirement';
import type { ToolRecovery } from '../tool-family/tool-family';
import type { ToolOutput } from '../protocol/tool-output';
import { requestedDraft } from '../human-loop/human-loop';
import type { SessionLock } from '../session-log/session-lock';
import { errorText } from '../protocol/error-text';

const UNKNOWN_OUTCOME =
  'Outcome unknown: the extension restarted while this call was running, so it may or may not have been applied. It was not run again. Call getParameters to see the current state.';

/** What running a tool needs of the runtime: its lock and clock, the one way to write the log, the human loop's gate, and the stage. */
export interface ToolExecutionAccess {
  lock: SessionLock;
  now(): number;
  commitDrafts(sessionId: string, drafts: AgentEventDraft[]): Promise<void>;
  /** The call's own lifecycle events (tool/*). */
  toolEvents(sessionId: string, toolCallId: string): Promise<AgentEvent[]>;
  /** Undefined: the call may run now. Otherwise its result without running: denied, answered, or still waiting for the user. */
  gate(request: ToolExecutionRequest, requirement: ApprovalRequirement): Promise<ToolExecutionResult | undefined>;
  /** `callKey` names the call uniquely across sessions (model tool call ids repeat), so the stage can record it. */
  executeTool(toolName: string, input: JsonValue, callKey: string, request: ToolExecutionRequest): Promise<ToolOutput>;
  /** Rebuilds the output of a call that was cut off by a restart, from what the stage recorded. */
  recoverTool?(
    toolName: string,
    input: JsonValue,
    callKey: string,
    startedAt: number,
    request: ToolExecutionRequest,
  ): Promise<ToolRecovery>;
  /** Whether a call must wait for the user's approval; none needs it when absent. */
  approvalRequirement?(toolName: string, input: JsonValue, request: ToolExecutionRequest): Promise<ApprovalRequirement>;
}

/**
 * At-most-once tool execution: `tool/requested` and `tool/started` are durable before the stage is asked,
 * the outcome is durable before the caller hears it, and a call the log saw start is never run again: after a
 * restart its outcome is rebuilt from what the stage recorded, or reported unknown.
 */
export class ToolExecution {
  private readonly running = new Map<string, Promise<ToolExecutionResult>>();

  constructor(private readonly access: ToolExecutionAccess) {}

  /** Whether this runtime is running the call now, so that its outcome is still to come. */
  isRunning(sessionId: string, toolCallId: string): boolean {
    return this.running.has(runningKey(sessionId, toolCallId));
  }

  /** Runs a tool call at most once per toolCallId, however often it is asked for. */
  execute(request: ToolExecutionRequest): Promise<ToolExecutionResult> {
    const key = runningKey(request.sessionId, request.toolCallId);
    const running = this.running.get(key);
    // A second ask while the call runs waits for its result instead of reading "started, no result" as unknown.
    if (running) return running.then((result) => ({ ...result, replayed: true }));
    const execution = this.executeOnce(request).finally(() => this.running.delete(key));
    this.running.set(key, execution);
    return execution;
  }

  private async executeOnce(request: ToolExecutionRequest): Promise<ToolExecutionResult> {
    const asked = (await this.access.approvalRequirement?.(request.toolName, request.input, request)) ?? {
      required: false,
    };
    const requirement = request.retryOf ? retryRequirement(request.toolName, request.input, asked) : asked;
    return (await this.access.gate(request, requirement)) ?? this.runOnce(request, requirement.targetId);
  }

  private async runOnce(request: ToolExecutionRequest, targetId?: string): Promise<ToolExecutionResult> {
    const { sessionId, turnId, toolCallId } = request;
    const previous = await this.access.lock.run(sessionId, async () => {
      const recorded = await this.access.toolEvents(sessionId, toolCallId);
      if (recorded.some((event) => event.type !== 'tool/requested'))
        return this.recordedOutcome(sessionId, turnId, toolCallId, recorded);
      const started = this.access.now();
      await this.access.commitDrafts(sessionId, [
        ...requestedDraft(request, recorded, started, targetId),
        { type: 'tool/started', sessionId, turnId, toolCallId, time: started, data: targetId ? { targetId } : {} },
      ]);
      return undefined;
    });
    if (previous) return previous;
    const startedAt = this.access.now();
    const output = await this.access
      .executeTool(request.toolName, request.input, `${sessionId}/${toolCallId}`, request)
      .catch((error: unknown): ToolOutput => ({
        ok: false,
        error: `The tool failed: ${errorText(error)}`,
      }));
    const durationMs = Math.max(0, this.access.now() - startedAt);
    const finished = this.access.now();
    await this.access.lock.run(sessionId, () =>
      this.access.commitDrafts(sessionId, [
        output.ok
          ? { type: 'tool/completed', sessionId, turnId, toolCallId, time: finished, data: { output, durationMs } }
          : {
              type: 'tool/failed',
              sessionId,
              turnId,
              toolCallId,
              time: finished,
              data: { error: String(output.error ?? 'failed'), output, durationMs },
            },
      ]),
    );
    return { status: output.ok ? 'completed' : 'failed', output, replayed: false };
  }

  /** The outcome of a call the log already knows; undefined when it provably never ran and may run now. */
  private async recordedOutcome(
    sessionId: string,
    turnId: string,
    toolCallId: string,
    recorded: AgentEvent[],
  ): Promise<ToolExecutionResult | undefined> {
    for (const event of recorded) {
      if (event.type === 'tool/completed') return { status: 'completed', output: event.data.output, replayed: true };
      if (event.type === 'tool/failed') return { status: 'failed', output: event.data.output, replayed: true };
      if (event.type === 'tool/denied') return { status: 'denied', output: event.data.output, replayed: true };
    }
    const requested = recorded.find((event) => event.type === 'tool/requested');
    const alreadyUnknown = recorded.some((event) => event.type === 'tool/unknown');
    const started = recorded.find((event) => event.type === 'tool/started');
    // A read-only call changed nothing, so whether it ran before the restart does not matter: it runs again.
    if (requested?.type === 'tool/requested' && started && !alreadyUnknown && isReadOnly(requested.data.toolName))
      return undefined;
    // A recovery that fails (the stage or the catalog not reachable yet) learns nothing: the outcome is unknown.
    // Letting it throw would fail the caller's request and leave the call started with no outcome at all.
    const recovery =
      requested?.type === 'tool/requested' && started && !alreadyUnknown
        ? await this.access
            .recoverTool?.(requested.data.toolName, requested.data.input, `${sessionId}/${toolCallId}`, started.time, {
              sessionId,
              turnId,
              stepId: requested.stepId,
              toolCallId,
              toolName: requested.data.toolName,
              input: requested.data.input,
            })
            .catch((): ToolRecovery => ({ kind: 'unknown' }))
        : undefined;
    if (recovery?.kind === 'never-reached') return undefined;
    const recovered = recovery?.kind === 'recovered' ? recovery.output : undefined;
    if (recovered) {
      const time = this.access.now();
      await this.access.commitDrafts(sessionId, [
        recovered.ok
          ? { type: 'tool/completed', sessionId, turnId, toolCallId, time, data: { output: recovered, durationMs: 0 } }
          : {
              type: 'tool/failed',
              sessionId,
              turnId,
              toolCallId,
              time,
              data: { error: String(recovered.error ?? 'failed'), output: recovered, durationMs: 0 },
            },
      ]);
      return { status: recovered.ok ? 'completed' : 'failed', output: recovered, replayed: true };
    }
    const output = { ok: false, error: UNKNOWN_OUTCOME };
    if (!alreadyUnknown) {
      await this.access.commitDrafts(sessionId, [
        {
          type: 'tool/unknown',
          sessionId,
          turnId,
          toolCallId,
          time: this.access.now(),
          data: { reason: UNKNOWN_OUTCOME },
        },
      ]);
    }
    return { status: 'unknown', output, replayed: true };
  }
}

function isReadOnly(toolName: string): boolean {
  return sideEffectOf(toolName) === 'read-only';
}

function runningKey(sessionId: string, toolCallId: string): string {
  return `${sessionId}\u0000${toolCallId}`;
}
