import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import type { CatalogEntry } from '../protocol/target-catalog';
import { targetManifestSchema } from '../protocol/target-manifest';
import type { StageDriver } from './stage-driver';
import { targetTools, type AuthoredTargets } from './target-tools';

const manifest = targetManifestSchema.parse(
  JSON.parse(readFileSync(new URL('../../targets/particles/manifest.json', import.meta.url), 'utf8')),
);
const installed: CatalogEntry = { manifest, entryPath: 'targets/particles/index.html' };
const authoredManifest = { ...manifest, id: 'made-here', title: 'Made here' };
const authored: CatalogEntry = {
  manifest: authoredManifest,
  artifact: { sessionId: 'session-2', artifactId: 'made-here', version: 2, versions: [], requested: [], granted: [] },
};

function setup() {
  const authoredTargets: AuthoredTargets = {
    knownSessions: vi.fn(() => ['session-1', 'session-2']),
    entries: vi.fn(async (sessionIds: Iterable<string>) => ([...sessionIds].includes('session-2') ? [authored] : [])),
    baseManifest: vi.fn(async () => authoredManifest),
  };
  const tools = targetTools({
    registry: { catalog: async () => ({ targets: [installed], defaultTargetId: 'particles' }) },
    values: { saved: async () => undefined },
    authoredTargets: () => authoredTargets,
  });
  return { tools, authoredTargets };
}

const stage = (state = {}): StageDriver => ({
  open: vi.fn(async () => state),
  send: vi.fn(async () => state),
  activeTargetId: async () => 'made-here',
});

describe('targetTools', () => {
  it('lists the installed targets and those made in every loaded conversation unless told which', async () => {
    const { tools, authoredTargets } = setup();
    expect((await tools.catalog()).targets).toEqual([installed, authored]);
    expect(authoredTargets.entries).toHaveBeenLastCalledWith(['session-1', 'session-2']);
    expect((await tools.catalog(['session-1'])).targets).toEqual([installed]);
  });

  it('runs a tool over the catalog of the conversations it is told, on the stage it is given', async () => {
    const { tools } = setup();
    const on = stage({ speed: 8 });
    expect(await tools.run('openTarget', { targetId: 'made-here' }, on, ['session-1'])).toMatchObject({ ok: false });
    expect(on.open).not.toHaveBeenCalled();
    expect(await tools.run('openTarget', { targetId: 'made-here' }, on, ['session-2'])).toMatchObject({ ok: true });
    expect(on.open).toHaveBeenCalledWith(authored);
  });
});
