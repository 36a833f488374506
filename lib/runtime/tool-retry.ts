import type { AgentEvent, AgentEventDraft, AgentEventOf } from '../protocol/agent-event';
import type { ToolExecutionRequest, ToolExecutionResult } from '../protocol/tool-execution-request';
import type { SessionLock } from '../session-log/session-lock';
import { toolNamed } from '../tools/tool-registry';

/** The runtime request `tool/retry` without its type: run the failed call `toolCallId` again in the open turn `turnId`. */
export interface ToolRetryRequest {
  sessionId: string;
  /** The turn the retry runs in (open): its approval and its end are this turn's. */
  turnId: string;
  /** The call's first attempt (the model's id for it): the retry is of its latest attempt. */
  toolCallId: string;
  /** Chosen by the caller, so that asking again (a lost reply, a wait for approval) is the same attempt. */
  attemptId: string;
}

export interface ToolRetryAccess {
  lock: SessionLock;
  now(): number;
  commitDrafts(sessionId: string, drafts: AgentEventDraft[]): Promise<void>;
  toolEvents(sessionId: string, toolCallId: string): Promise<AgentEvent[]>;
  isTurnOpen(sessionId: string, turnId: string): Promise<boolean>;
  isRunning(sessionId: string, toolCallId: string): boolean;
  execute(request: ToolExecutionRequest): Promise<ToolExecutionResult>;
}

/** The first attempt of a call and its retries in order, read from the first attempt's events. */
interface CallAttempts {
  first: AgentEventOf<'tool/requested'>;
  retries: AgentEventOf<'tool/retried'>[];
}

const OUTCOMES = new Set<AgentEvent['type']>(['tool/completed', 'tool/failed', 'tool/unknown', 'tool/denied']);
const RETRYABLE_OUTCOMES = new Set<AgentEvent['type']>(['tool/failed', 'tool/unknown']);

/**
 * Retry: the failed call is run again as a new call whose id is the attempt's, so that it has its own at-most-once,
 * approval and recovery. `tool/retried` (on the first attempt's id) and the attempt's `tool/requested` are written in
 * one commit; the attempt then runs through the normal path, asking for approval again when the tool is not read-only.
 */
export async function retryToolCall(access: ToolRetryAccess, request: ToolRetryRequest): Promise<ToolExecutionResult> {
  const { sessionId, turnId, attemptId } = request;
  const attempt = await access.lock.run(sessionId, async () => {
    const attempts = await callAttempts(access, sessionId, request.toolCallId);
    const known = attempts.retries.find((retry) => retry.attemptId === attemptId);
    if (known) return attempts.first;
    if (!(await access.isTurnOpen(sessionId, turnId))) throw new Error('A retry runs in an open turn.');
    const tool = toolNamed(attempts.first.data.toolName);
    if (tool?.runsOn === 'user') throw new Error(`${tool.name} asks the user; it is not retried.`);
    const latest = attempts.retries.at(-1)?.attemptId ?? attempts.first.toolCallId;
    const outcome = (await access.toolEvents(sessionId, latest)).findLast((event) => OUTCOMES.has(event.type));
    if (!outcome || !RETRYABLE_OUTCOMES.has(outcome.type) || access.isRunning(sessionId, latest))
      throw new Error('Only a call that failed, or whose outcome is unknown, can be retried.');
    const time = access.now();
    const { toolName, input, targetId } = attempts.first.data;
    await access.commitDrafts(sessionId, [
      {
        type: 'tool/retried',
        sessionId,
        turnId,
        toolCallId: attempts.first.toolCallId,
        attemptId,
        time,
        data: { attempt: attempts.retries.length + 2, previousAttemptId: latest },
      },
      {
        type: 'tool/requested',
        sessionId,
        turnId,
        stepId: attemptId,
        toolCallId: attemptId,
        time,
        data: { toolName, input, ...(targetId ? { targetId } : {}) },
      },
    ]);
    return attempts.first;
  });
  return access.execute({
    sessionId,
    turnId,
    stepId: attemptId,
    toolCallId: attemptId,
    toolName: attempt.data.toolName,
    input: attempt.data.input,
    retryOf: attempt.toolCallId,
  });
}

/** A call named by its first attempt: that attempt's request and every retry of it. */
async function callAttempts(access: ToolRetryAccess, sessionId: string, toolCallId: string): Promise<CallAttempts> {
  const events = await access.toolEvents(sessionId, toolCallId);
  const first = events.find((event) => event.type === 'tool/requested');
  if (first?.type !== 'tool/requested') throw new Error(`No tool call ${toolCallId} in this conversation.`);
  return { first, retries: events.filter((event) => event.type === 'tool/retried') };
}
