import type { JsonValue } from '../protocol/json-value';
import type { ToolOutput } from '../protocol/tool-output';
import type { ApprovalRequirement } from '../tool-family/approval-policy';
import type {
  ExecutedRunsOn,
  InterruptedToolCall,
  ToolCall,
  ToolRecovery,
  ToolRunner,
} from '../tool-family/tool-family';
import type { RegisteredTool, ToolServices } from './tool-registry';

/** A tool as dispatch sees it: a registered one, or one of a dynamic family (an MCP server's). */
export type DispatchedTool = RegisteredTool | ToolRunner<ExecutedRunsOn, never>;

/** The service that runs a tool, when this caller holds it; none for a question (the human loop answers those). */
function serviceOf(tool: DispatchedTool | undefined, services: Partial<ToolServices>): never | undefined {
  if (!tool || tool.runsOn === 'user') return undefined;
  return services[tool.runsOn] as never | undefined;
}

/** Runs a call on its tool's service; undefined when this caller holds no such service (another one runs it). */
export function executeOn(
  tool: DispatchedTool | undefined,
  services: Partial<ToolServices>,
  input: JsonValue,
  call: ToolCall,
): Promise<ToolOutput> | undefined {
  const service = serviceOf(tool, services);
  if (service === undefined || !tool || tool.runsOn === 'user') return undefined;
  return tool.execute(input, service, call);
}

/** What a call cut off by a restart became: the tool's own recovery, else unknown (a read-only one ran again before this). */
export function recoverOn(
  tool: DispatchedTool | undefined,
  services: Partial<ToolServices>,
  input: JsonValue,
  call: InterruptedToolCall,
): Promise<ToolRecovery> | undefined {
  const service = serviceOf(tool, services);
  if (service === undefined || !tool || tool.runsOn === 'user') return undefined;
  return tool.recover ? tool.recover(input, service, call) : Promise.resolve({ kind: 'unknown' });
}

/** The tool's own approval check, when it has one and its service is here; undefined: the policy decides. */
export function approveOn(
  tool: DispatchedTool | undefined,
  services: Partial<ToolServices>,
  input: JsonValue,
  call: ToolCall,
): Promise<ApprovalRequirement> | undefined {
  const service = serviceOf(tool, services);
  if (service === undefined || !tool || tool.runsOn === 'user' || !tool.approve) return undefined;
  return tool.approve(input, service, call);
}
