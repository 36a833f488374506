import type { JsonValue } from './json-value';

/** A model's tool call as the runtime is asked to run it: the `tool/execute` runtime request without its type. */
export interface ToolExecutionRequest {
  sessionId: string;
  turnId: string;
  stepId: string;
  toolCallId: string;
  toolName: string;
  input: JsonValue;
  /** Set by the runtime alone: this call is a retry of that call (its first attempt), so a tool that is not read-only asks again. */
  retryOf?: string;
}

/** The runtime's answer to it, checked against `runtimeResultSchemas['tool/execute']` in transit. */
export type ToolExecutionResult =
  | { status: 'completed' | 'failed' | 'denied' | 'unknown'; output: JsonValue; replayed: boolean }
  /** The call waits for the user (an approval or a question): ask again to keep waiting. */
  | { status: 'waiting'; requestId: string; output: null; replayed: boolean };
