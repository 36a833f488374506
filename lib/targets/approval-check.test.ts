import { describe, expect, it } from 'vitest';
import { targetManifestSchema } from '../protocol/target-manifest';
import { DEFAULT_APPROVAL_POLICY } from '../tool-family/approval-policy';
import { approvalCheck } from './approval-check';

const manifest = (id: string, confirmReset: boolean) =>
  targetManifestSchema.parse({
    id,
    title: `Target ${id}`,
    description: 'A target.',
    entry: 'index.html',
    confirmReset,
    params: { settings: { speed: { type: 'number', value: 1 } } },
  });
const catalog = {
  targets: [
    { manifest: manifest('careful', true), entryPath: 'targets/careful/index.html' },
    { manifest: manifest('relaxed', false), entryPath: 'targets/relaxed/index.html' },
  ],
};
const policy = { ...DEFAULT_APPROVAL_POLICY, tools: { resetTarget: 'allow' as const, openTarget: 'ask' as const } };

function check(activeTargetId: string | undefined) {
  return approvalCheck({
    catalog: async () => catalog,
    activeTargetId: async () => activeTargetId,
    policy: async () => policy,
  });
}

describe('approvalCheck', () => {
  it('judges a call by the manifest of the active target', async () => {
    expect(await check('careful')('resetTarget', {})).toMatchObject({ required: true, targetId: 'careful' });
    expect(await check('relaxed')('resetTarget', {})).toEqual({ required: false, targetId: 'relaxed' });
  });

  it('takes the target an openTarget call names, not the active one', async () => {
    expect(await check('relaxed')('openTarget', { targetId: 'careful' })).toMatchObject({
      required: true,
      targetId: 'careful',
      summary: 'Open the target "careful".',
    });
  });

  it('judges by the policy alone when no known target is involved', async () => {
    expect(await check(undefined)('resetTarget', {})).toEqual({ required: false });
    expect(await check('gone')('openTarget', { targetId: 'gone' })).toMatchObject({ required: true });
  });
});
