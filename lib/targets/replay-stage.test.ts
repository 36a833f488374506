import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { targetManifestSchema } from '../protocol/target-manifest';
import { createReplayStage } from './replay-stage';
import { executeTool } from './target-tools';

const manifest = targetManifestSchema.parse(
  JSON.parse(readFileSync(new URL('../../targets/particles/manifest.json', import.meta.url), 'utf8')),
);
const catalog = { targets: [{ manifest, entryPath: 'targets/particles/index.html' }] };

describe('createReplayStage', () => {
  it('rebuilds the output of a call from what the stage recorded, without touching a target', async () => {
    const stage = createReplayStage([
      { type: 'apply', targetId: 'particles', state: { speed: 12, show_vectors: true } },
    ]);
    const output = await executeTool(
      'setParameters',
      {
        changes: [
          { param: 'speed', value: 12 },
          { param: 'show_vectors', value: true },
        ],
      },
      { catalog, stage },
    );
    expect(output).toEqual({ ok: true, targetId: 'particles', applied: { speed: 12, show_vectors: true } });
  });

  it('fails when the stage has no record of a step', async () => {
    const stage = createReplayStage([{ type: 'open', targetId: 'particles', state: {} }]);
    const output = await executeTool(
      'getParameters',
      {},
      { catalog: { ...catalog, defaultTargetId: 'particles' }, stage },
    );
    expect(output).toEqual({ ok: false, error: 'The stage has no record of this step.' });
  });
});
