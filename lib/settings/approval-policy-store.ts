import type { KeyValueStore } from '../storage/key-value-store';
import { approvalPolicySchema, DEFAULT_APPROVAL_POLICY, type ApprovalPolicy } from '../tool-family/approval-policy';
import { APPROVAL_TOOLS } from '../tools/approval-requirement';

export const APPROVAL_POLICY_KEY = 'approvalPolicy';

/** What a broken stored policy reads as: every tool that can need approval asks. */
export const FAIL_CLOSED_APPROVAL_POLICY: ApprovalPolicy = {
  ...DEFAULT_APPROVAL_POLICY,
  tools: Object.fromEntries(APPROVAL_TOOLS.map((name) => [name, 'ask' as const])),
};

/** The stored policy; none stored is the default, a broken one fails closed. */
export function parseStoredApprovalPolicy(stored: unknown): ApprovalPolicy {
  const parsed = approvalPolicySchema.safeParse(stored ?? DEFAULT_APPROVAL_POLICY);
  return parsed.success ? parsed.data : FAIL_CLOSED_APPROVAL_POLICY;
}

/** The approval policy in storage, read once and kept until it changes (a storage read per tool call shows). */
export class ApprovalPolicyStore {
  private cached: Promise<ApprovalPolicy> | undefined;

  constructor(private readonly storage: KeyValueStore) {
    storage.onChange(APPROVAL_POLICY_KEY, () => (this.cached = undefined));
  }

  load(): Promise<ApprovalPolicy> {
    const loading = (this.cached ??= this.storage.get(APPROVAL_POLICY_KEY).then(parseStoredApprovalPolicy));
    loading.catch(() => {
      if (this.cached === loading) this.cached = undefined;
    });
    return loading;
  }

  async save(policy: ApprovalPolicy): Promise<void> {
    await this.storage.set(APPROVAL_POLICY_KEY, policy);
    this.cached = undefined;
  }
}
