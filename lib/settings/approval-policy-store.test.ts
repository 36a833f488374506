import { describe, expect, it, vi } from 'vitest';
import type { KeyValueStore } from '../storage/key-value-store';
import { DEFAULT_APPROVAL_POLICY } from '../tool-family/approval-policy';
import { APPROVAL_TOOLS } from '../tools/approval-requirement';
import {
  APPROVAL_POLICY_KEY,
  ApprovalPolicyStore,
  FAIL_CLOSED_APPROVAL_POLICY,
  parseStoredApprovalPolicy,
} from './approval-policy-store';

function memoryStorage(initial: Record<string, unknown> = {}) {
  const values = new Map(Object.entries(initial));
  const listeners: { key: string; listener: () => void }[] = [];
  const storage = {
    get: vi.fn(async (key: string) => values.get(key)),
    set: vi.fn(async (key: string, value: unknown) => void values.set(key, value)),
    onChange: (key: string, listener: () => void) => void listeners.push({ key, listener }),
  } satisfies KeyValueStore;
  /** What another context writing the key looks like here. */
  const changeElsewhere = (key: string, value: unknown) => {
    values.set(key, value);
    for (const entry of listeners) if (entry.key === key) entry.listener();
  };
  return { storage, changeElsewhere };
}

describe('parseStoredApprovalPolicy', () => {
  it('reads nothing stored as the default policy', () => {
    expect(parseStoredApprovalPolicy(undefined)).toEqual(DEFAULT_APPROVAL_POLICY);
  });

  it('reads a valid stored policy as it is, with defaults for missing fields', () => {
    expect(parseStoredApprovalPolicy({ tools: { setParameter: 'ask' } })).toEqual({
      tools: { setParameter: 'ask' },
      expiresAfterSeconds: 300,
      questionExpiresAfterSeconds: 1800,
    });
  });

  it('fails closed on a broken stored policy: every tool that can need approval asks', () => {
    const policy = parseStoredApprovalPolicy({ tools: { setParameter: 'sometimes' } });
    expect(policy).toEqual(FAIL_CLOSED_APPROVAL_POLICY);
    expect(APPROVAL_TOOLS.length).toBeGreaterThan(0);
    for (const name of APPROVAL_TOOLS) expect(policy.tools[name]).toBe('ask');
    expect(parseStoredApprovalPolicy('not a policy')).toEqual(FAIL_CLOSED_APPROVAL_POLICY);
  });
});

describe('ApprovalPolicyStore', () => {
  it('reads storage once and answers later loads from memory', async () => {
    const { storage } = memoryStorage({ [APPROVAL_POLICY_KEY]: { tools: { openTarget: 'ask' } } });
    const store = new ApprovalPolicyStore(storage);
    expect((await store.load()).tools).toEqual({ openTarget: 'ask' });
    expect((await store.load()).tools).toEqual({ openTarget: 'ask' });
    expect(storage.get).toHaveBeenCalledTimes(1);
  });

  it('drops what it kept when the stored policy changes elsewhere', async () => {
    const { storage, changeElsewhere } = memoryStorage();
    const store = new ApprovalPolicyStore(storage);
    expect(await store.load()).toEqual(DEFAULT_APPROVAL_POLICY);
    changeElsewhere(APPROVAL_POLICY_KEY, { tools: { setParameters: 'ask' } });
    expect((await store.load()).tools).toEqual({ setParameters: 'ask' });
    expect(storage.get).toHaveBeenCalledTimes(2);
  });

  it('saves under the policy key and reads the saved policy next', async () => {
    const { storage } = memoryStorage();
    const store = new ApprovalPolicyStore(storage);
    await store.load();
    const next = { tools: { resetTarget: 'allow' as const }, expiresAfterSeconds: 60, questionExpiresAfterSeconds: 90 };
    await store.save(next);
    expect(storage.set).toHaveBeenCalledWith(APPROVAL_POLICY_KEY, next);
    expect(await store.load()).toEqual(next);
  });

  it('reads again after a failed read instead of keeping the failure', async () => {
    const { storage } = memoryStorage();
    storage.get.mockRejectedValueOnce(new Error('storage is gone'));
    const store = new ApprovalPolicyStore(storage);
    await expect(store.load()).rejects.toThrow('storage is gone');
    expect(await store.load()).toEqual(DEFAULT_APPROVAL_POLICY);
  });
});
