import { describe, expect, it } from 'vitest';
import { DEFAULT_APPROVAL_POLICY } from '../tool-family/approval-policy';
import type { PageGate } from './page-approval';
import { pageApprovalCheck } from './page-approval-check';

const call = { sessionId: 's1', toolCallId: 'c1' };

function check(gate: () => Promise<PageGate>, tools: Record<string, 'ask' | 'allow'> = {}) {
  return pageApprovalCheck({ gate, policy: async () => ({ ...DEFAULT_APPROVAL_POLICY, tools }) });
}

describe('pageApprovalCheck', () => {
  it('asks for site access with the origin on the request', async () => {
    const requirement = await check(async () => ({
      required: true,
      summary: 'Let Splitbrain read and act on example.com?',
      siteOrigin: 'https://example.com',
      always: true,
    }))('observePage', {}, call);
    expect(requirement).toEqual({
      required: true,
      summary: 'Let Splitbrain read and act on example.com?',
      siteOrigin: 'https://example.com',
      expiresAfterMs: 300_000,
    });
  });

  it('runs what the gate lets through, unless the policy asks for the tool', async () => {
    expect(await check(async () => ({ required: false }))('actOnPage', {}, call)).toEqual({ required: false });
    expect(await check(async () => ({ required: false }), { actOnPage: 'ask' })('actOnPage', {}, call)).toMatchObject({
      required: true,
      summary: 'Run actOnPage.',
    });
  });

  it('asks when the page cannot be checked', async () => {
    const requirement = await check(() => Promise.reject(new Error('no tabs')))('actOnPage', {}, call);
    expect(requirement).toMatchObject({ required: true, summary: /could not be checked: no tabs/ });
  });
});
