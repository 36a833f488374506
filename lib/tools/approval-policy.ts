import { z } from 'zod';
import { flattenParameters, type TargetManifest } from '../protocol/target-manifest';
import { canonicalJson } from '../protocol/canonical-json';
import type { JsonValue } from '../protocol/json-value';
import { toolNames } from './tool-definitions';

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
export const APPROVAL_TOOLS = toolNames.filter(
  (name) => name !== 'askUser' && name !== 'listTargets' && name !== 'getParameters',
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

function changedParameters(toolName: string, input: JsonValue): string[] {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return [];
  if (toolName === 'setParameter' && typeof input.param === 'string') return [input.param];
  if (toolName === 'setParameters' && Array.isArray(input.changes)) {
    return input.changes.flatMap((change) =>
      change && typeof change === 'object' && !Array.isArray(change) && typeof change.param === 'string'
        ? [change.param]
        : [],
    );
  }
  return [];
}

function describeValue(value: JsonValue | undefined): string {
  return JSON.stringify(value ?? null).slice(0, 120);
}

/** A line the user reads on the approval card: what will happen, to which target. */
export function summarizeCall(toolName: string, input: JsonValue, target?: TargetManifest): string {
  const on = target ? ` on "${target.title}"` : '';
  const record = typeof input === 'object' && input !== null && !Array.isArray(input) ? input : {};
  switch (toolName) {
    case 'resetTarget':
      return `Reset every parameter${on} to its default.`;
    case 'openTarget':
      return `Open the target "${String(record.targetId)}".`;
    case 'setParameter':
      return `Set ${String(record.param)} to ${describeValue(record.value)}${on}.`;
    case 'setParameters':
      return `Change ${changedParameters(toolName, input).join(', ')}${on}.`;
    default:
      return `Run ${toolName}${on}.`;
  }
}

/** Decides whether a call needs the user's approval: by the policy for its tool, or because the target's manifest asks for it. */
export function approvalRequirement(toolName: string, input: JsonValue, context: ApprovalContext): ApprovalRequirement {
  const { policy, target } = context;
  const summary = summarizeCall(toolName, input, target);
  const targetId = target?.id;
  const byPolicy = approvalMode(policy, toolName) === 'ask';
  const byManifest = target !== undefined && manifestAsks(toolName, input, target);
  if (!byPolicy && !byManifest)
    return { required: false, ...(targetId && toolName !== 'listTargets' ? { targetId } : {}) };
  return {
    required: true,
    summary,
    expiresAfterMs: policy.expiresAfterSeconds * 1000,
    ...(targetId ? { targetId } : {}),
  };
}

function manifestAsks(toolName: string, input: JsonValue, target: TargetManifest): boolean {
  if (toolName === 'resetTarget') return target.confirmReset === true;
  const parameters = flattenParameters(target);
  return changedParameters(toolName, input).some((name) => parameters.get(name)?.spec.confirm === true);
}

/** SHA-256 of the tool name and canonical arguments: an approval is bound to exactly these. */
export async function argumentsHash(toolName: string, input: JsonValue): Promise<string> {
  const bytes = new TextEncoder().encode(`${toolName}\u0000${canonicalJson(input)}`);
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
  return [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
