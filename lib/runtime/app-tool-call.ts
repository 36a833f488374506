import type { AgentEventDraft } from '../protocol/agent-event';
import type { JsonValue } from '../protocol/json-value';
import type { ToolExecutionRequest, ToolExecutionResult } from '../protocol/tool-execution-request';
import type { SessionLock } from '../session-log/session-lock';

/** What running an app's call needs of the runtime: its lock, clock and ids, the log, and at-most-once execution. */
export interface AppToolCallAccess {
  lock: SessionLock;
  now(): number;
  newId(): string;
  commitDrafts(sessionId: string, drafts: AgentEventDraft[]): Promise<void>;
  execute(request: ToolExecutionRequest): Promise<ToolExecutionResult>;
  /**
   * Drives the turn as its owner (so it is not taken for a gone panel's turn), until `release`; `onStop` is told the
   * command id of the user's Stop.
   */
  own(turnId: string, onStop: (commandId: string) => void): void;
  release(turnId: string): void;
}

const STOPPED = 'Stopped by the user.';

export interface AppToolCall {
  sessionId: string;
  /** The line the conversation shows for the turn, saying which app calls which tool. */
  note: string;
  toolName: string;
  input: { [key: string]: JsonValue };
}

/**
 * An MCP App's own tool call, in a turn of its own: approvals, at-most-once execution and the log are those of a
 * model's call, and the model reads the call and its result with the rest of the conversation. The turn ends when
 * the call has an outcome (or the user's answer never came and its approval expired).
 */
export async function runAppToolCall(access: AppToolCallAccess, call: AppToolCall): Promise<ToolExecutionResult> {
  const { sessionId } = call;
  const turnId = access.newId();
  const request: ToolExecutionRequest = {
    sessionId,
    turnId,
    stepId: access.newId(),
    toolCallId: access.newId(),
    toolName: call.toolName,
    input: call.input,
  };
  let stoppedBy: string | undefined;
  access.own(turnId, (commandId) => (stoppedBy = commandId));
  await access.lock.run(sessionId, () =>
    access.commitDrafts(sessionId, [
      {
        type: 'turn/started',
        sessionId,
        turnId,
        time: access.now(),
        data: { userItemId: access.newId(), text: call.note },
      },
    ]),
  );
  try {
    let result = await access.execute(request);
    while (result.status === 'waiting' && stoppedBy === undefined) result = await access.execute(request);
    if (result.status === 'waiting')
      return { status: 'denied', output: { ok: false, error: STOPPED }, replayed: false };
    return result;
  } finally {
    access.release(turnId);
    const time = access.now();
    await access.lock.run(sessionId, () =>
      access.commitDrafts(sessionId, [
        stoppedBy === undefined
          ? { type: 'turn/completed', sessionId, turnId, time, data: { reason: 'stop' } }
          : { type: 'turn/aborted', sessionId, turnId, commandId: stoppedBy, time, data: { reason: STOPPED } },
      ]),
    );
  }
}
