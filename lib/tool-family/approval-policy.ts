import { z } from 'zod';
import type { BlobRef } from '../protocol/blob-ref';
import type { TargetManifest } from '../protocol/target-manifest';
import { canonicalJson } from '../protocol/canonical-json';
import type { JsonValue } from '../protocol/json-value';

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

/** Whether the policy asks before a tool runs; a tool the stored policy does not name gets its default. */
export function approvalMode(policy: ApprovalPolicy, toolName: string): 'ask' | 'allow' {
  return policy.tools[toolName] ?? DEFAULT_APPROVAL_POLICY.tools[toolName] ?? 'allow';
}

/**
 * `targetId` names the target the call acts on, so its events can show it; `siteOrigin` asks for access to a site;
 * `images` are stored images the card shows (an MCP App's message).
 */
export type ApprovalRequirement =
  | { required: false; targetId?: string }
  | {
      required: true;
      summary: string;
      targetId?: string;
      siteOrigin?: string;
      images?: BlobRef[];
      expiresAfterMs: number;
    };

export interface ApprovalContext {
  policy: ApprovalPolicy;
  /** The target the call would act on, when one is open. */
  target?: TargetManifest;
}

/** SHA-256 of the tool name and canonical arguments: an approval is bound to exactly these. */
export async function argumentsHash(toolName: string, input: JsonValue): Promise<string> {
  const bytes = new TextEncoder().encode(`${toolName}\u0000${canonicalJson(input)}`);
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
  return [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
