import { authoredTargetToolFamily, type AuthoredTargetServices } from '../authored-targets/target-artifact-tools';
import { jobToolFamily, type JobToolServices } from '../jobs/job-tool-family';
import { listJobsTool } from '../jobs/list-jobs-tool';
import type { McpToolServices } from '../mcp/mcp-tool-family';
import { pageToolFamily, type PageToolServices } from '../page-tools/page-tool-family';
import type { ToolOutput } from '../protocol/tool-output';
import { targetToolFamily, type StageToolServices } from '../targets/target-tool-family';
import type { ViewArtifactControl } from '../view-artifacts/view-artifact-control';
import { showArtifactTool } from '../view-artifacts/show-artifact-tool';
import { askUserTool } from './ask-user-tool';
import type { AskedTool, ExecutedRunsOn, ExecutedTool, ToolSideEffect } from '../tool-family/tool-family';

/** Every tool the model is told of, family by family, in the order it is told of them. A new tool is one line here. */
export const TOOLS: readonly RegisteredTool[] = [
  ...targetToolFamily,
  askUserTool,
  showArtifactTool,
  ...jobToolFamily,
  listJobsTool,
  ...authoredTargetToolFamily,
  ...pageToolFamily,
];

export type RegisteredTool = AskedTool | ExecutedTool<ExecutedRunsOn, never>;

/** The service each `runsOn` names: what that family's `execute` is handed. */
export interface ToolServices {
  stage: StageToolServices;
  page: PageToolServices;
  jobs: JobToolServices;
  'view-artifacts': Pick<ViewArtifactControl, 'show' | 'recoverShow'>;
  'authored-targets': AuthoredTargetServices;
  mcp: McpToolServices;
}

const byName = new Map(TOOLS.map((tool) => [tool.name, tool]));

export const toolNames: readonly string[] = TOOLS.map((tool) => tool.name);

export function toolNamed(name: string): RegisteredTool | undefined {
  return byName.get(name);
}

/** A name this build does not know counts as side-effecting: at most once is the safe side. */
export function sideEffectOf(name: string): ToolSideEffect {
  return toolNamed(name)?.sideEffect ?? 'side-effecting';
}

export function unknownTool(name: string): ToolOutput {
  return { ok: false, error: `Unknown tool "${name}". Available tools: ${toolNames.join(', ')}.` };
}
