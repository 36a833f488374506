import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import type { CatalogEntry } from '../protocol/target-catalog';
import { targetManifestSchema } from '../protocol/target-manifest';
import type { ToolOutput } from '../protocol/tool-output';
import { stageActions } from './stage-actions';

const manifest = targetManifestSchema.parse(
  JSON.parse(readFileSync(new URL('../../targets/particles/manifest.json', import.meta.url), 'utf8')),
);
const installed: CatalogEntry = { manifest, entryPath: 'targets/particles/index.html' };
const authored: CatalogEntry = {
  manifest: { ...manifest, id: 'made-here', title: 'Made here' },
  artifact: { sessionId: 'session-2', artifactId: 'made-here', version: 3, versions: [], requested: [], granted: [] },
};

function setup(active: string | undefined, options: { previewing?: boolean; openOutput?: ToolOutput } = {}) {
  const stage = {
    open: vi.fn(async () => ({})),
    send: vi.fn(async () => ({})),
    activeTargetId: async () => active,
    preview: vi.fn(async () => undefined),
    isPreview: (targetId: string) => targetId === active && (options.previewing ?? false),
  };
  const targets = {
    catalog: vi.fn(async () => ({ targets: [installed, authored], defaultTargetId: 'particles' })),
    run: vi.fn(async (): Promise<ToolOutput> => options.openOutput ?? { ok: true }),
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
    flush: vi.fn(async () => undefined),
  };
  const toolbarEdits = { record: vi.fn(async () => undefined) };
  return {
    actions: stageActions({ stage, targets, values, toolbarEdits, authoredTargets: () => ({ load }) }),
    toolbarEdits,
    stage,
    targets,
    load,
    values,
  };
}

describe('stageActions', () => {
  it('runs a toolbar call on the stage the user sees', async () => {
    const { actions, stage, targets, toolbarEdits } = setup(undefined);
    expect(await actions.runManualTool('getState', {})).toEqual({ ok: true });
    expect(targets.run).toHaveBeenCalledWith('getState', {}, stage);
    expect(toolbarEdits.record).not.toHaveBeenCalled();
  });

  it("keeps the toolbar's changes of values for rewinds, not its reads or refused calls", async () => {
    const changed = setup('particles', { openOutput: { ok: true, targetId: 'particles', applied: { speed: 20 } } });
    await changed.actions.runManualTool('setParameter', { param: 'speed', value: 20 });
    expect(changed.toolbarEdits.record).toHaveBeenCalledWith('particles', { speed: 20 });
    const reset = setup('particles', { openOutput: { ok: true, targetId: 'particles', values: { speed: 8 } } });
    await reset.actions.runManualTool('resetTarget', {});
    expect(reset.toolbarEdits.record).toHaveBeenCalledWith('particles', { speed: 8 });
    const read = setup('particles', {
      openOutput: { ok: true, targetId: 'particles', parameters: { motion: { speed: { value: 20 } } } },
    });
    await read.actions.runManualTool('getParameters', {});
    const refused = setup('particles', { openOutput: { ok: false, targetId: 'particles', applied: { speed: 9 } } });
    await refused.actions.runManualTool('setParameter', { param: 'speed', value: 900 });
    expect(read.toolbarEdits.record).not.toHaveBeenCalled();
    expect(refused.toolbarEdits.record).not.toHaveBeenCalled();
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

  it('reloads for a rewind only the target the stage shows, says whether it did, and fails when it could not', async () => {
    const { actions, stage, targets } = setup('made-here');
    expect(await actions.rewindStage.reloadIfActive('session-2', 'particles')).toBe(false);
    expect(targets.run).not.toHaveBeenCalled();
    expect(await actions.rewindStage.reloadIfActive('session-2', 'made-here')).toBe(true);
    // Over the catalog of the rewound conversation, which a restarted worker knows nothing of yet.
    expect(targets.run).toHaveBeenCalledWith('openTarget', { targetId: 'made-here' }, stage, ['session-2']);
    const refused = setup('made-here', { openOutput: { ok: false, error: 'The stage did not answer.' } });
    await expect(refused.actions.rewindStage.reloadIfActive('session-2', 'made-here')).rejects.toThrow(
      'Could not open "made-here" again: The stage did not answer.',
    );
  });

  it('applies restored values to the target the stage shows, saves them over the others and writes them', async () => {
    const { actions, stage, values } = setup('particles');
    const delivered = await actions.rewindStage.restoreTargetValues([
      { targetId: 'particles', values: { speed: 12 } },
      { targetId: 'chart', values: { bars: 7 } },
    ]);
    expect(delivered).toEqual({ applied: ['particles'], saved: ['chart'] });
    expect(stage.send).toHaveBeenCalledWith('particles', { type: 'apply', payload: { speed: 12 } });
    expect(stage.send).toHaveBeenCalledTimes(1);
    expect(values.remember).toHaveBeenCalledWith('chart', { bars: 7, title: 'Sales' });
    expect(values.flush).toHaveBeenCalledOnce();
  });

  it("saves the values of a target shown as an older version's preview instead of sending them to the preview", async () => {
    const { actions, stage, values } = setup('chart', { previewing: true });
    const delivered = await actions.rewindStage.restoreTargetValues([{ targetId: 'chart', values: { bars: 7 } }]);
    expect(delivered).toEqual({ applied: [], saved: ['chart'] });
    expect(stage.send).not.toHaveBeenCalled();
    expect(values.remember).toHaveBeenCalledWith('chart', { bars: 7, title: 'Sales' });
  });
});
