import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverTargets, manifestScripts, targetAssetFiles } from './discover-targets';

const targetsRoot = resolve(import.meta.dirname, '../targets');

function copyOfTargets(): string {
  const root = mkdtempSync(join(tmpdir(), 'splitbrain-targets-'));
  cpSync(targetsRoot, root, { recursive: true });
  return root;
}

describe('discoverTargets', () => {
  it('finds every target folder of the project', () => {
    expect(discoverTargets(targetsRoot).map((target) => target.entry.manifest.id)).toContain('particles');
  });

  it('fails naming the file and the field of a broken manifest', () => {
    const root = copyOfTargets();
    const manifest = join(root, 'particles', 'manifest.json');
    writeFileSync(
      manifest,
      JSON.stringify({
        id: 'particles',
        title: 'x',
        description: 'y',
        entry: 'index.html',
        params: { settings: { speed: { type: 'number', value: 'fast' } } },
      }),
    );
    expect(() => discoverTargets(root)).toThrow(`${manifest}: params.settings.speed.value`);
  });

  it('fails on invalid JSON and on a missing entry file', () => {
    const root = copyOfTargets();
    writeFileSync(join(root, 'particles', 'manifest.json'), '{ nope');
    expect(() => discoverTargets(root)).toThrow('not valid JSON');
    const other = copyOfTargets();
    const manifest = join(other, 'particles', 'manifest.json');
    writeFileSync(
      manifest,
      JSON.stringify({ id: 'particles', title: 'x', description: 'y', entry: 'missing.html', params: {} }),
    );
    expect(() => discoverTargets(other)).toThrow(`${manifest}: entry: file "missing.html" does not exist`);
  });

  it('copies the shared scripts and writes each target its manifest as a script, and refuses a manifest.js of its own', () => {
    const targets = discoverTargets(targetsRoot);
    const copied = targetAssetFiles(targetsRoot, targets).map((file) => file.relativeDest);
    expect(copied).toEqual(expect.arrayContaining(['targets/bridge.js', 'targets/params.js']));
    const script = manifestScripts(targets).find((file) => file.relativeDest === 'targets/particles/manifest.js')!;
    const window: { SplitbrainManifest?: { id: string } } = {};
    new Function('window', script.contents)(window);
    expect(window.SplitbrainManifest).toEqual(
      targets.find((target) => target.entry.manifest.id === 'particles')!.entry.manifest,
    );
    const root = copyOfTargets();
    writeFileSync(join(root, 'chart', 'manifest.js'), '');
    expect(() => discoverTargets(root)).toThrow('the build writes this file from manifest.json');
  });
});
