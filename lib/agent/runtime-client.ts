import type { McpToolsResult } from '../protocol/mcp-tools-result';
import type { AgentEventDraft } from '../protocol/agent-event';
import type { RuntimeRequest } from '../protocol/runtime-message';
import type { RuntimeResult } from '../protocol/runtime-result-schemas';
import type { ToolExecutionRequest, ToolExecutionResult } from '../protocol/tool-execution-request';

/** A steer or cancel for one turn, as the runtime's `command/submit` takes it. */
export type TurnCommand = Omit<Extract<RuntimeRequest, { type: 'command/submit' }>, 'type'>;

export type ResumeCommand = Omit<Extract<RuntimeRequest, { type: 'turn/resume' }>, 'type'>;
export type ResumeAnswer = RuntimeResult<'turn/resume'>;

/** What a turn's driver asks of the runtime; the side panel implements it over runtime messages and the events port. */
export interface RuntimeClient {
  /** Resolves once the runtime has recorded the batch; rejects when it could not be written. */
  appendEvents(sessionId: string, drafts: AgentEventDraft[]): Promise<void>;
  executeTool(request: ToolExecutionRequest): Promise<Pick<ToolExecutionResult, 'status' | 'output'>>;
  /** The steers queued for the turn, recorded as applied by this call. */
  takeSteers(sessionId: string, turnId: string): Promise<{ commandId: string; text: string }[]>;
  submitCommand(command: TurnCommand): Promise<void>;
  /** At a safe point: whether a pause was queued for the turn; the runtime has then recorded it as paused. */
  takePause?(sessionId: string, turnId: string): Promise<boolean>;
  /** Resumes a paused turn; applied with the note (and the fresh observation) the model gets, else stale. */
  resumeTurn?(command: ResumeCommand): Promise<ResumeAnswer>;
  /** Tells the runtime this document drives the turn, so a cancel from elsewhere reaches it. */
  ownTurn(sessionId: string, turnId: string): void;
  releaseTurn(sessionId: string, turnId: string): void;
  /** At a safe point of the turn: whether a budget is reached (recorded by the runtime as `notify/budget-reached`). */
  budgetReached?(sessionId: string, turnId: string): Promise<boolean>;
  /** Runs a failed call again as a new attempt in the open turn (the runtime's `tool/retry`); `waiting` while it asks the user. */
  retryToolCall?(
    request: Omit<Extract<RuntimeRequest, { type: 'tool/retry' }>, 'type'>,
  ): Promise<Pick<ToolExecutionResult, 'status' | 'output'>>;
  /** MCP glue: the connected MCP servers' tools for this turn. */
  mcpTools?(): Promise<McpToolsResult>;
}
