import type { TargetManifest } from '../protocol/target-manifest';
import type { JsonValue } from '../protocol/json-value';
import { inputRecord } from '../tool-family/tool-family';
import {
  approvalMode,
  DEFAULT_APPROVAL_POLICY,
  type ApprovalContext,
  type ApprovalRequirement,
} from '../tool-family/approval-policy';
import { sideEffectOf, TOOLS, toolNamed } from './tool-registry';

/** Tools whose calls may be put behind an approval on the options page. */
export const APPROVAL_TOOLS: readonly string[] = TOOLS.filter((tool) => tool.approval?.offered !== false).map(
  (tool) => tool.name,
);

/** A line the user reads on the approval card: what will happen, to which target. */
export function summarizeCall(toolName: string, input: JsonValue, target?: TargetManifest): string {
  const summary = toolNamed(toolName)?.approval?.summarize?.(inputRecord(input), target);
  return summary ?? `Run ${toolName}${target ? ` on "${target.title}"` : ''}.`;
}

/** Decides whether a call needs the user's approval: by the policy for its tool, or because the target's manifest asks for it. */
export function approvalRequirement(toolName: string, input: JsonValue, context: ApprovalContext): ApprovalRequirement {
  const { policy, target } = context;
  const summary = summarizeCall(toolName, input, target);
  const targetId = target?.id;
  const byPolicy = approvalMode(policy, toolName) === 'ask';
  const byManifest = target !== undefined && manifestAsks(toolName, input, target);
  const recordsTarget = toolNamed(toolName)?.approval?.recordsTarget !== false;
  if (!byPolicy && !byManifest) return { required: false, ...(targetId && recordsTarget ? { targetId } : {}) };
  return {
    required: true,
    summary,
    expiresAfterMs: policy.expiresAfterSeconds * 1000,
    ...(targetId ? { targetId } : {}),
  };
}

function manifestAsks(toolName: string, input: JsonValue, target: TargetManifest): boolean {
  return toolNamed(toolName)?.approval?.manifestAsks?.(inputRecord(input), target) === true;
}

/**
 * A retry of a call that is not read-only asks the user again, whatever the policy says: the failed attempt may
 * have acted before it failed, and running it again is the user's decision to make with the card in front of them.
 */
export function retryRequirement(
  toolName: string,
  input: JsonValue,
  requirement: ApprovalRequirement,
): ApprovalRequirement {
  if (requirement.required || sideEffectOf(toolName) === 'read-only') return requirement;
  return {
    required: true,
    summary: `Run again (retry): ${summarizeCall(toolName, input)}`,
    expiresAfterMs: DEFAULT_APPROVAL_POLICY.expiresAfterSeconds * 1000,
    ...(requirement.targetId ? { targetId: requirement.targetId } : {}),
  };
}
