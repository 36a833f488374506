import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import type { CatalogEntry } from '../protocol/target-catalog';
import { targetManifestSchema } from '../protocol/target-manifest';
import { stageActions } from './stage-actions';

const manifest = targetManifestSchema.parse(
  JSON.parse(readFileSync(new URL('../../targets/particles/manifest.json', import.meta.url), 'utf8')),
);
const installed: CatalogEntry = { manifest, entryPath: 'targets/particles/index.html' };
const authored: CatalogEntry = {
  manifest: { ...manifest, id: 'made-here', title: 'Made here' },
  artifact: { sessionId: 'session-2', artifactId: 'made-here', version: 3, versions: [], requested: [], granted: [] },
};

function setup(active: string | undefined) {
  const stage = {
    open: vi.fn(async () => ({})),
    send: vi.fn(async () => ({})),
    activeTargetId: async () => active,
    preview: vi.fn(async () => undefined),
  };
  const targets = {
    catalog: vi.fn(async () => ({ targets: [installed, authored], defaultTargetId: 'particles' })),
    run: vi.fn(async () => ({ ok: true })),
  };
  const load = vi.fn(async (_sessionId: string, artifactId: string, version?: number) => ({
    artifactId,
    version: version ?? 3,
    manifest: authored.manifest,
    files: { html: '<p>v1</p>', script: '' },
    granted: [],
  }));
  const values = {
    saved: vi.fn(async (targetId: string) => (targetId === 'chart' ? { bars: 4, title: 'Sales' } : undefined)),
    remember: vi.fn(),
  };
  return {
    actions: stageActions({ stage, targets, values, authoredTargets: () => ({ load }) }),
    stage,
    targets,
    load,
    values,
  };
}

describe('stageActions', () => {
  it('runs a toolbar call on the stage the user sees', async () => {
    const { actions, stage, targets } = setup(undefined);
    expect(await actions.runManualTool('getState', {})).toEqual({ ok: true });
    expect(targets.run).toHaveBeenCalledWith('getState', {}, stage);
  });

  it('previews an older version of a target made in the conversation, and refuses one made elsewhere', async () => {
    const { actions, stage, targets, load } = setup(undefined);
    await actions.openTargetVersion('session-2', 'made-here', 1);
    expect(targets.catalog).toHaveBeenCalledWith(['session-2']);
    expect(load).toHaveBeenCalledWith('session-2', 'made-here', 1);
    expect(stage.preview).toHaveBeenCalledWith(authored, {
      artifactId: 'made-here',
      version: 1,
      manifest: authored.manifest,
      html: '<p>v1</p>',
      script: '',
      granted: [],
    });
    await expect(actions.openTargetVersion('session-2', 'particles', 1)).rejects.toThrow(
      'No target "particles" was made in this conversation.',
    );
  });

  it('opens a target again only when it is the one the stage shows', async () => {
    const { actions, stage, targets } = setup('made-here');
    await actions.reloadIfActive('particles');
    expect(targets.run).not.toHaveBeenCalled();
    await actions.reloadIfActive('made-here');
    expect(targets.run).toHaveBeenCalledWith('openTarget', { targetId: 'made-here' }, stage);
  });

  it('applies restored values to the target the stage shows and saves them over the others', async () => {
    const { actions, stage, values } = setup('particles');
    await actions.restoreTargetValues([
      { targetId: 'particles', values: { speed: 12 } },
      { targetId: 'chart', values: { bars: 7 } },
    ]);
    expect(stage.send).toHaveBeenCalledWith('particles', { type: 'apply', payload: { speed: 12 } });
    expect(stage.send).toHaveBeenCalledTimes(1);
    expect(values.remember).toHaveBeenCalledWith('chart', { bars: 7, title: 'Sales' });
  });
});
