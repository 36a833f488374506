import type { ApprovalPolicy } from '../tools/approval-policy';
import { PAGE_TOOLS } from '../page-tools/page-tool-definitions';
import { approvalCheck } from '../targets/approval-check';
import { pageApprovalCheck } from '../page-tools/page-approval-check';
import type { PageLink } from '../page-tools/page-link';
import type { StageLink } from '../targets/stage-link';
import type { TargetTools } from '../targets/target-tools';
import { recoverToolCall } from '../targets/tool-recovery';
import type { ToolExecutionAccess } from './tool-execution';

export interface ToolRoutesDependencies {
  pages: Pick<PageLink, 'execute' | 'gate'>;
  stage: Pick<StageLink, 'forToolCall' | 'record' | 'activeTargetId'>;
  targets: TargetTools;
  policy(): Promise<ApprovalPolicy>;
}

export type ToolRoutes = Pick<ToolExecutionAccess, 'executeTool' | 'recoverTool' | 'approvalRequirement'>;

/** Where a model's tool call runs (a page tool on the page, every other on the stage), is recovered, is approved. */
export function toolRoutes(dependencies: ToolRoutesDependencies): ToolRoutes {
  const { pages, stage, targets, policy } = dependencies;
  const targetApproval = approvalCheck({
    catalog: () => targets.catalog(),
    activeTargetId: () => stage.activeTargetId(),
    policy,
  });
  const pageApproval = pageApprovalCheck({ gate: (...call) => pages.gate(...call), policy });
  return {
    executeTool: (toolName, input, callKey, request) =>
      PAGE_TOOLS.has(toolName)
        ? pages.execute(toolName, input, request)
        : targets.run(toolName, input, stage.forToolCall(callKey), [request.sessionId]),
    // A page action cut off by a restart is not known to have happened or not (observePage simply runs again).
    recoverTool: async (toolName, input, callKey, startedAt) =>
      PAGE_TOOLS.has(toolName)
        ? { kind: 'unknown' }
        : recoverToolCall(
            { toolName, input, callKey, startedAt },
            { stageRecord: () => stage.record(), runTool: targets.run },
          ),
    approvalRequirement: (toolName, input, request) =>
      PAGE_TOOLS.has(toolName) ? pageApproval(toolName, input, request) : targetApproval(toolName, input),
  };
}
