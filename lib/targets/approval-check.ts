import type { TargetCatalog } from '../protocol/target-catalog';
import type { JsonValue } from '../protocol/json-value';
import { type ApprovalPolicy, type ApprovalRequirement } from '../tool-family/approval-policy';
import { approvalRequirement } from '../tools/approval-requirement';
import { inputRecord } from '../tool-family/tool-family';
import { toolNamed } from '../tools/tool-registry';

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

/** A tool may name the target it acts on (`openTarget`); every other acts on the active one. */
function namedTarget(toolName: string, input: JsonValue): string | undefined {
  return toolNamed(toolName)?.approval?.namedTarget?.(inputRecord(input));
}
