import type { ApprovalPolicy } from '../tools/approval-policy';
import { PAGE_TOOLS } from '../page-tools/page-tool-definitions';
import { approvalCheck } from '../targets/approval-check';
import { pageApprovalCheck } from '../page-tools/page-approval-check';
import type { PageLink } from '../page-tools/page-link';
import type { StageLink } from '../targets/stage-link';
import type { TargetTools } from '../targets/target-tools';
import { recoverToolCall } from '../targets/tool-recovery';
import type { ToolExecutionAccess } from './tool-execution';
import type { McpToolFamily } from '../mcp/mcp-tool-family';

export interface ToolRoutesDependencies {
  pages: Pick<PageLink, 'execute' | 'gate'>;
  stage: Pick<StageLink, 'forToolCall' | 'record' | 'activeTargetId'>;
  targets: TargetTools;
  policy(): Promise<ApprovalPolicy>;
  /** MCP glue: the servers' tools, routed before the static ones (to move onto the tool registry). */
  mcp?: Pick<McpToolFamily, 'owns' | 'execute' | 'recover' | 'approval'>;
}

export type ToolRoutes = Pick<ToolExecutionAccess, 'executeTool' | 'recoverTool' | 'approvalRequirement'>;

/** Where a model's tool call runs (a page tool on the page, every other on the stage), is recovered, is approved. */
export function toolRoutes(dependencies: ToolRoutesDependencies): ToolRoutes {
  const { pages, stage, targets, policy, mcp } = dependencies;
  const targetApproval = approvalCheck({
    catalog: () => targets.catalog(),
    activeTargetId: () => stage.activeTargetId(),
    policy,
  });
  const pageApproval = pageApprovalCheck({ gate: (...call) => pages.gate(...call), policy });
  const routes: ToolRoutes = {
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
  return mcp ? withMcpRoutes(routes, mcp, policy) : routes;
}

/** MCP glue: a name the MCP family owns goes to it; every other to the static routes. */
function withMcpRoutes(
  routes: ToolRoutes,
  mcp: NonNullable<ToolRoutesDependencies['mcp']>,
  policy: () => Promise<ApprovalPolicy>,
): ToolRoutes {
  return {
    executeTool: (toolName, input, callKey, request) =>
      mcp.owns(toolName)
        ? mcp.execute(toolName, input, { sessionId: request.sessionId, ownerId: callKey })
        : routes.executeTool(toolName, input, callKey, request),
    recoverTool: (toolName, input, callKey, startedAt, request) =>
      mcp.owns(toolName) ? mcp.recover(toolName) : routes.recoverTool!(toolName, input, callKey, startedAt, request),
    approvalRequirement: async (toolName, input, request) =>
      mcp.owns(toolName)
        ? mcp.approval(toolName, input, (await policy()).expiresAfterSeconds * 1000)
        : routes.approvalRequirement!(toolName, input, request),
  };
}
