import { z } from 'zod';
import type { TargetManifest } from '../protocol/target-manifest';
import { canonicalJson } from '../protocol/canonical-json';
import type { JsonValue } from '../protocol/json-value';
import { inputRecord } from './tool-family';
import { TOOLS, toolNamed } from './tool-registry';

/** Which tool calls wait for the user's approval. Stored in extension storage and edited on the options page. */
export const approvalPolicySchema = z.object({
  tools: z.record(z.string(), z.enum(['ask', 'allow'])).default({}),
  expiresAfterSeconds: z.number().int().min(5).max(3600).default(300),
  /** How long a question from the model (askUser) stays answerable. */
  questionExpiresAfterSeconds: z.number().int().min(5).max(86_400).default(1800),
});
export type ApprovalPolicy = z.infer<typeof approvalPolicySchema>;

export const DEFAULT_APPROVAL_POLICY: ApprovalPolicy = {
  tools: { resetTarget: 'ask' },
  expiresAfterSeconds: 300,
  questionExpiresAfterSeconds: 1800,
};

/** Tools whose calls may be put behind an approval on the options page. */
export const APPROVAL_TOOLS: readonly string[] = TOOLS.filter((tool) => tool.approval?.offered !== false).map(
  (tool) => tool.name,
);

/** Whether the policy asks before a tool runs; a tool the stored policy does not name gets its default. */
export function approvalMode(policy: ApprovalPolicy, toolName: string): 'ask' | 'allow' {
  return policy.tools[toolName] ?? DEFAULT_APPROVAL_POLICY.tools[toolName] ?? 'allow';
}

/** `targetId` names the target the call acts on, so its events can show it; `siteOrigin` asks for access to a site. */
export type ApprovalRequirement =
  | { required: false; targetId?: string }
  | { required: true; summary: string; targetId?: string; siteOrigin?: string; expiresAfterMs: number };

export interface ApprovalContext {
  policy: ApprovalPolicy;
  /** The target the call would act on, when one is open. */
  target?: TargetManifest;
}

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

/** SHA-256 of the tool name and canonical arguments: an approval is bound to exactly these. */
export async function argumentsHash(toolName: string, input: JsonValue): Promise<string> {
  const bytes = new TextEncoder().encode(`${toolName}\u0000${canonicalJson(input)}`);
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
  return [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
