import { describe, expect, it } from 'vitest';
import { approvalMode, DEFAULT_APPROVAL_POLICY } from '../tool-family/approval-policy';

describe('approvalMode', () => {
  it('takes the mode the policy names for a tool', () => {
    const policy = {
      ...DEFAULT_APPROVAL_POLICY,
      tools: { resetTarget: 'allow' as const, setParameter: 'ask' as const },
    };
    expect(approvalMode(policy, 'resetTarget')).toBe('allow');
    expect(approvalMode(policy, 'setParameter')).toBe('ask');
  });

  it('gives a tool the policy does not name its default, so the options page shows what the runtime does', () => {
    const policy = { ...DEFAULT_APPROVAL_POLICY, tools: {} };
    expect(approvalMode(policy, 'resetTarget')).toBe('ask');
    expect(approvalMode(policy, 'setParameter')).toBe('allow');
  });
});
