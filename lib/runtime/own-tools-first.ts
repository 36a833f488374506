import { executeOn, recoverOn } from '../tools/tool-dispatch';
import { toolNamed, type ToolServices } from '../tools/tool-registry';
import type { ToolExecutionAccess } from './tool-execution';

type ToolRunning = Pick<ToolExecutionAccess, 'executeTool' | 'recoverTool'>;

/**
 * How the runtime runs and recovers a call: on its own services (jobs, shown artifacts, authored targets) when the
 * tool runs on one of them, else as `others` say; a call neither can recover has an unknown outcome.
 */
export function ownToolsFirst(own: () => Partial<ToolServices>, others: ToolRunning): Required<ToolRunning> {
  return {
    executeTool: (toolName, input, callKey, request) =>
      executeOn(toolNamed(toolName), own(), input, { request, callKey }) ??
      others.executeTool(toolName, input, callKey, request),
    recoverTool: (toolName, input, callKey, startedAt, request) =>
      recoverOn(toolNamed(toolName), own(), input, { request, callKey, startedAt }) ??
      others.recoverTool?.(toolName, input, callKey, startedAt, request) ??
      Promise.resolve({ kind: 'unknown' }),
  };
}
