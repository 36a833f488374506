import type { ApprovalPolicy } from '../tool-family/approval-policy';
import { approvalCheck } from '../targets/approval-check';
import { pageApprovalCheck } from '../page-tools/page-approval-check';
import type { PageLink } from '../page-tools/page-link';
import type { StageLink } from '../targets/stage-link';
import type { TargetTools } from '../targets/target-tools';
import type { ToolExecutionAccess } from './tool-execution';
import type { McpToolFamily } from '../mcp/mcp-tool-family';
import { toolNamed, unknownTool, type ToolServices } from '../tools/tool-registry';
import { approveOn, executeOn, recoverOn, type DispatchedTool } from '../tools/tool-dispatch';

export interface ToolRoutesDependencies {
  pages: Pick<PageLink, 'execute' | 'gate'>;
  stage: Pick<StageLink, 'forToolCall' | 'record' | 'activeTargetId'>;
  targets: TargetTools;
  policy(): Promise<ApprovalPolicy>;
  /** MCP glue: the servers' tools, a dynamic family whose names are looked up before the registry's. */
  mcp?: Pick<McpToolFamily, 'runner'>;
}

export type ToolRoutes = Pick<ToolExecutionAccess, 'executeTool' | 'recoverTool' | 'approvalRequirement'>;

/** The services of the tools that run outside the runtime (the stage, the page, MCP servers), and their approval. */
export function toolRoutes(dependencies: ToolRoutesDependencies): ToolRoutes {
  const { pages, stage, targets, policy, mcp } = dependencies;
  const targetApproval = approvalCheck({
    catalog: () => targets.catalog(),
    activeTargetId: () => stage.activeTargetId(),
    policy,
  });
  const services: Partial<ToolServices> = {
    stage: {
      stageFor: (callKey) => stage.forToolCall(callKey),
      context: targets.context,
      record: () => stage.record(),
    },
    page: { link: pages, approval: pageApprovalCheck({ gate: (...call) => pages.gate(...call), policy }) },
    mcp: { policy },
  };
  // MCP glue: a name the MCP family owns goes to it; every other to the registry.
  const toolOf = (toolName: string): DispatchedTool | undefined => mcp?.runner(toolName) ?? toolNamed(toolName);
  return {
    executeTool: (toolName, input, callKey, request) =>
      executeOn(toolOf(toolName), services, input, { request, callKey }) ??
      Promise.resolve(
        toolNamed(toolName) ? { ok: false, error: `${toolName} does not run here.` } : unknownTool(toolName),
      ),
    recoverTool: async (toolName, input, callKey, startedAt, request) =>
      recoverOn(toolOf(toolName), services, input, { request, callKey, startedAt }) ?? { kind: 'unknown' },
    approvalRequirement: (toolName, input, request) =>
      approveOn(toolOf(toolName), services, input, {
        request,
        callKey: `${request.sessionId}/${request.toolCallId}`,
      }) ?? targetApproval(toolName, input),
  };
}
