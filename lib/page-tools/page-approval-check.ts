import type { JsonValue } from '../protocol/json-value';
import { approvalMode, type ApprovalPolicy, type ApprovalRequirement } from '../tool-family/approval-policy';
import { summarizeCall } from '../tools/approval-requirement';
import type { PageGate } from './page-approval';
import { errorText } from '../protocol/error-text';

export interface PageApprovalCheckDependencies {
  gate(toolName: string, input: JsonValue, call: { sessionId: string; toolCallId: string }): Promise<PageGate>;
  policy(): Promise<ApprovalPolicy>;
}

/**
 * Whether a page tool call waits for the user: its page gate (site access, the always-ask gates, the site's
 * mode) or the tool's policy on the options page. A gate that cannot be judged asks.
 */
export function pageApprovalCheck(dependencies: PageApprovalCheckDependencies) {
  return async (
    toolName: string,
    input: JsonValue,
    call: { sessionId: string; toolCallId: string },
  ): Promise<ApprovalRequirement> => {
    const policy = await dependencies.policy();
    const gate = await dependencies.gate(toolName, input, call).catch((error: unknown): PageGate => ({
      required: true,
      summary: `${summarizeCall(toolName, input)} (the page could not be checked: ${errorText(error)})`,
      always: true,
    }));
    const byPolicy = approvalMode(policy, toolName) === 'ask';
    if (!gate.required && !byPolicy) return { required: false };
    return {
      required: true,
      summary: gate.required ? gate.summary : summarizeCall(toolName, input),
      expiresAfterMs: policy.expiresAfterSeconds * 1000,
      ...(gate.required && gate.siteOrigin ? { siteOrigin: gate.siteOrigin } : {}),
    };
  };
}
