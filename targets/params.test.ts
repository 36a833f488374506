import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { discoverTargets } from '../scripts/discover-targets';
import { flattenParameters, type TargetManifest } from '../lib/protocol/target-manifest';

interface Parameters {
  names: string[];
  specs: Record<string, { type: string }>;
  defaults(): Record<string, unknown>;
  copy(state: Record<string, unknown>): Record<string, unknown>;
  has(name: string): boolean;
  coerce(name: string, value: unknown): unknown;
  merge(state: Record<string, unknown>, changes: Record<string, unknown>): Record<string, unknown>;
}

const source = readFileSync(join(import.meta.dirname, 'params.js'), 'utf8');

/** Runs targets/params.js as a target page would, with `window.SplitbrainManifest` set by the build's manifest.js. */
function load(manifest?: unknown): { fromManifest(manifest?: unknown): Parameters } {
  const window: Record<string, unknown> = manifest ? { SplitbrainManifest: manifest } : {};
  runInNewContext(source, { window });
  return window.SplitbrainParams as { fromManifest(manifest?: unknown): Parameters };
}

const manifests = discoverTargets(join(import.meta.dirname)).map((target) => target.entry.manifest);
const particles = manifests.find((manifest) => manifest.id === 'particles')!;

function defaultsOf(manifest: TargetManifest): Record<string, unknown> {
  return Object.fromEntries([...flattenParameters(manifest)].map(([name, { spec }]) => [name, spec.value]));
}

describe('targets/params.js', () => {
  it.each(manifests.map((manifest) => [manifest.id, manifest] as const))(
    '%s: names and defaults are the manifest’s, in manifest order',
    (_id, manifest) => {
      const parameters = load(manifest).fromManifest();
      expect(parameters.names).toEqual([...flattenParameters(manifest).keys()]);
      expect(parameters.defaults()).toEqual(defaultsOf(manifest));
    },
  );

  it('hands out fresh copies, so changing one never changes the defaults', () => {
    const parameters = load(particles).fromManifest();
    const state = parameters.defaults();
    (state.position as number[])[0] = 99;
    expect((parameters.defaults().position as number[])[0]).toBe(0);
    const copy = parameters.copy(state);
    (copy.position as number[])[1] = 42;
    expect((state.position as number[])[1]).toBe(12);
  });

  it('coerces each type: clamps numbers and array items, rounds integers, normalises enums and colours', () => {
    const parameters = load(particles).fromManifest();
    expect(parameters.coerce('speed', '12.5')).toBe(12.5);
    expect(parameters.coerce('speed', 999)).toBe(50);
    expect(parameters.coerce('particle_count', 123.6)).toBe(124);
    expect(parameters.coerce('particle_count', 1)).toBe(10);
    expect(parameters.coerce('mode', ' Vortex ')).toBe('vortex');
    expect(parameters.coerce('color', '#ABC')).toBe('#aabbcc');
    expect(parameters.coerce('show_vectors', 'true')).toBe(true);
    expect(parameters.coerce('position', [1, 500, '-3'])).toEqual([1, 100, -3]);
    expect(parameters.coerce('position', { x: 1, y: 2, z: 3 })).toEqual([1, 2, 3]);
  });

  it('keeps the spelling of an enum option and cuts a string to its maxLength', () => {
    const synth = manifests.find((manifest) => manifest.id === 'synth')!;
    expect(load(synth).fromManifest().coerce('root_note', 'c#')).toBe('C#');
    const chart = manifests.find((manifest) => manifest.id === 'chart')!;
    expect(load(chart).fromManifest().coerce('title', 'x'.repeat(100))).toBe('x'.repeat(80));
  });

  it('refuses an unusable value with an error naming the parameter, and merge then changes nothing', () => {
    const parameters = load(particles).fromManifest();
    expect(() => parameters.coerce('speed', 'fast')).toThrow('speed: expected a number, got "fast"');
    expect(() => parameters.coerce('mode', 'spiral')).toThrow('mode: expected one of auto, manual, vortex');
    expect(() => parameters.coerce('color', 'red')).toThrow('color: expected a colour as #rrggbb');
    expect(() => parameters.coerce('position', [1, 2])).toThrow('position: expected 3 numbers');
    expect(() => parameters.coerce('show_vectors', 'maybe')).toThrow('show_vectors: expected true or false');
    const state = parameters.defaults();
    expect(() => parameters.merge(state, { speed: 20, mode: 'spiral' })).toThrow('mode:');
    expect(state).toEqual(defaultsOf(particles));
  });

  it('merge applies the known changes to a copy and ignores unknown names', () => {
    const parameters = load(particles).fromManifest();
    const state = parameters.defaults();
    const next = parameters.merge(state, { speed: 20, unknown_name: 1 });
    expect(next).toEqual({ ...defaultsOf(particles), speed: 20 });
    expect(state.speed).toBe(8);
    expect(parameters.has('unknown_name')).toBe(false);
  });

  it('takes a manifest passed in, and fails clearly without one', () => {
    expect(load().fromManifest(particles).names).toContain('speed');
    expect(() => load().fromManifest()).toThrow('SplitbrainParams: no manifest');
  });
});
