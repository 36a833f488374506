import type { LanguageModel, ModelMessage, ToolResultPart, ToolSet } from 'ai';
import type { AgentEventDraft } from '../protocol/agent-event';
import type { JsonValue } from '../protocol/json-value';
import type { ContextOptions } from './context-keeper';

export interface ToolCallRequest {
  stepId: string;
  toolCallId: string;
  toolName: string;
  input: JsonValue;
}

export interface AgentLoopOptions {
  model: LanguageModel;
  sessionId: string;
  turnId: string;
  /** The conversation so far, ending with this turn's user message. */
  messages: ModelMessage[];
  emit(drafts: AgentEventDraft[]): void;
  /** Resolves once every emitted event has been recorded by the runtime. */
  flush(): Promise<void>;
  executeTool(call: ToolCallRequest): Promise<JsonValue>;
  /** MCP glue: tools whose definitions are known only at turn start (the connected MCP servers'), added to the declared ones. */
  extraTools?(): Promise<ToolSet>;
  signal: AbortSignal;
  maxSteps?: number;
  newId(): string;
  now(): number;
  /** Waits before a retry and returns early when the signal aborts; a timer unless a test replaces it. */
  wait?(delayMs: number, signal: AbortSignal): Promise<void>;
  retry?: { maxRetries?: number; capMs?: number };
  /** A stream that yields nothing for this long is stopped and reported as stalled; 60 s unless the endpoint profile says otherwise. */
  streamIdleTimeoutMs?: number;
  /** The endpoint's address, so a refused local server gets advice (Ollama's allowed origins). */
  endpointUrl?: string;
  /** Never written into an event: the API key, should a provider echo it in an error. */
  secrets?: string[];
  /** At a safe point (after a model call or the tool calls, before the next model call): the user's queued additions, now applied. */
  takeSteers?(): Promise<{ commandId: string; text: string }[]>;
  /** At a safe point before the next model call: whether the person paused the turn (the runtime records it as paused). */
  takePause?(): Promise<boolean>;
  /** The cancel command that stopped this turn, recorded with `turn/aborted`. */
  cancelCommandId?(): string | undefined;
  /** At a safe point before the next model call: whether a budget is reached (the runtime records which). */
  budgetReached?(): Promise<boolean>;
  /** The model the endpoint is asked for, recorded with each step so its price applies. */
  modelId?: string;
  /** Keeps each request inside the model's window: counted before sending, compacted past the threshold. */
  context?: ContextOptions;
  /** A tool result for the model, with the images it carries (in the result, or in a user message after it); JSON unless given. */
  toolResult?(
    call: { toolCallId: string; toolName: string },
    output: JsonValue,
  ): Promise<{ part: ToolResultPart; followUp?: ModelMessage }>;
}
