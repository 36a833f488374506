import type { ZodType } from 'zod';
import type { JsonObject, JsonValue } from '../protocol/json-value';
import type { TargetManifest } from '../protocol/target-manifest';
import type { ToolExecutionRequest } from '../protocol/tool-execution-request';
import type { ToolOutput } from '../protocol/tool-output';
import type { ApprovalRequirement } from './approval-policy';

/**
 * A read-only tool changes nothing outside the log, so a call of it cut off by a restart is simply run again; a
 * side-effecting one runs at most once, and a call of it whose outcome was lost is reported unknown.
 */
export type ToolSideEffect = 'read-only' | 'side-effecting';

/** Who runs a tool: the service its `execute` is handed (`user`: the human loop answers it, nothing executes it). */
export type ToolRunsOn = 'stage' | 'page' | 'jobs' | 'view-artifacts' | 'authored-targets' | 'user' | 'mcp';

/** What a restarted runtime can learn about a call that has started but has no result. */
export type ToolRecovery = { kind: 'recovered'; output: ToolOutput } | { kind: 'never-reached' } | { kind: 'unknown' };

/** One call as a tool runs it; `callKey` names it uniquely across sessions (model tool call ids repeat). */
export interface ToolCall {
  request: ToolExecutionRequest;
  callKey: string;
}

/** A call the log saw start, and when, with no outcome: the worker restarted while it ran. */
export interface InterruptedToolCall extends ToolCall {
  startedAt: number;
}

/** How a tool's calls are put before the user; each part is optional, and absent means the plain default. */
export interface ToolApproval {
  /** False: never offered on the options page (the tool only reads, or it is itself a question). */
  offered?: false;
  /** The line on the approval card; `Run <name> on "<target>".` when absent. */
  summarize?(input: JsonObject, target?: TargetManifest): string;
  /** Whether the target's manifest asks the user before this call (a `confirm` parameter, `confirmReset`). */
  manifestAsks?(input: JsonObject, target: TargetManifest): boolean;
  /** The target the call names, when it is not the active one. */
  namedTarget?(input: JsonObject): string | undefined;
  /** False: its events do not name the active target (the call is about no one target). */
  recordsTarget?: false;
}

/** The runs-on of a tool a service executes (every one but a question to the user). */
export type ExecutedRunsOn = Exclude<ToolRunsOn, 'user'>;

/** How a call of a tool is run: by the service of its `runsOn`, once, then recovered after a restart and approved. */
export interface ToolRunner<RunsOn extends ExecutedRunsOn, Services> {
  name: string;
  runsOn: RunsOn;
  sideEffect: ToolSideEffect;
  execute(input: JsonValue, services: Services, call: ToolCall): Promise<ToolOutput>;
  /** Absent: a read-only call runs again, any other's outcome is unknown. */
  recover?(input: JsonValue, services: Services, call: InterruptedToolCall): Promise<ToolRecovery>;
  /** Whether the call waits for the user; absent: as the approval policy and the active target's manifest say. */
  approve?(input: JsonValue, services: Services, call: ToolCall): Promise<ApprovalRequirement>;
}

/** What the model is told of a tool, and how its calls are put before the user. */
export interface ToolDeclaration {
  name: string;
  description: string;
  /** What the input must be; `execute` checks it (with the tool's own wording of a refusal). */
  inputSchema: ZodType;
  sideEffect: ToolSideEffect;
  approval?: ToolApproval;
}

/** A tool of a static family: declared to the model, run by its service. */
export type ExecutedTool<RunsOn extends ExecutedRunsOn, Services> = ToolDeclaration & ToolRunner<RunsOn, Services>;

/** A question to the user: the human loop's gate answers it before anything could execute it. */
export type AskedTool = ToolDeclaration & { runsOn: 'user' };

/** Checks a tool definition against the contract without widening its types. */
export function defineTool<RunsOn extends ExecutedRunsOn, Services>(
  tool: ExecutedTool<RunsOn, Services>,
): ExecutedTool<RunsOn, Services> {
  return tool;
}

/** The record of an input that is an object, else an empty one (summaries read optional fields). */
export function inputRecord(input: JsonValue): JsonObject {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? input : {};
}
