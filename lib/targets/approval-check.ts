import type { TargetCatalog } from '../protocol/target-catalog';
import type { JsonValue } from '../protocol/json-value';
import { approvalRequirement, type ApprovalPolicy, type ApprovalRequirement } from '../tools/approval-policy';

export interface ApprovalCheckDependencies {
  catalog(): Promise<TargetCatalog>;
  activeTargetId(): Promise<string | undefined>;
  policy(): Promise<ApprovalPolicy>;
}

/** Whether a call waits for the user, judged by the policy and the manifest of the target it acts on. */
export function approvalCheck(dependencies: ApprovalCheckDependencies) {
  return async (toolName: string, input: JsonValue): Promise<ApprovalRequirement> => {
    const targetId = namedTarget(toolName, input) ?? (await dependencies.activeTargetId());
    const catalog = await dependencies.catalog();
    const target = catalog.targets.find((entry) => entry.manifest.id === targetId)?.manifest;
    return approvalRequirement(toolName, input, { policy: await dependencies.policy(), ...(target ? { target } : {}) });
  };
}

/** `openTarget` names the target it acts on; every other tool acts on the active one. */
function namedTarget(toolName: string, input: JsonValue): string | undefined {
  if (toolName !== 'openTarget' || !input || typeof input !== 'object' || Array.isArray(input)) return undefined;
  return typeof input.targetId === 'string' ? input.targetId : undefined;
}
