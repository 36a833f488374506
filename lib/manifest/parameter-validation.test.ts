import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { checkChanges } from './parameter-validation';
import { targetManifestSchema } from '../protocol/target-manifest';

const particles = targetManifestSchema.parse(
  JSON.parse(readFileSync(new URL('../../targets/particles/manifest.json', import.meta.url), 'utf8')),
);

describe('checkChanges', () => {
  it('accepts valid values and unwraps { value } wrappers', () => {
    const result = checkChanges(particles, [
      { param: 'speed', value: 12 },
      { param: 'show_vectors', value: { value: true } },
      { param: 'position', value: [1, 2, 3] },
    ]);
    expect(result).toEqual({
      ok: true,
      changes: [
        { param: 'speed', value: 12 },
        { param: 'show_vectors', value: true },
        { param: 'position', value: [1, 2, 3] },
      ],
    });
  });

  it('names the closest valid parameter and lists the known ones for an unknown name', () => {
    const result = checkChanges(particles, [{ param: 'spd', value: 3 }]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toContain('Parameter "spd" not found. Did you mean "speed"');
    expect(result.error).toContain('Known parameters: speed, mode, particle_count, color, show_vectors, position.');
  });

  it('rejects wrong types and lengths, and changes nothing when one change is bad', () => {
    const result = checkChanges(particles, [
      { param: 'speed', value: 5 },
      { param: 'show_vectors', value: 'yes' },
      { param: 'position', value: [1, 2] },
    ]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((problem) => problem.param)).toEqual(['show_vectors', 'position']);
    expect(result.error).toContain('expects true or false');
    expect(result.error).toContain('expects exactly 3 numbers, got 2');
    expect(result.error).toContain('Nothing was changed.');
  });

  it('clamps out-of-range numbers and says so', () => {
    const result = checkChanges(particles, [{ param: 'speed', value: 80 }]);
    expect(result).toEqual({ ok: true, changes: [{ param: 'speed', value: 50, clampedFrom: 80 }] });
  });

  it('rejects non-integers for integer parameters and unknown enum options', () => {
    const result = checkChanges(particles, [
      { param: 'particle_count', value: 10.5 },
      { param: 'mode', value: 'sideways' },
    ]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toContain('expects an integer');
    expect(result.error).toContain('expects one of "auto", "manual", "vortex"');
  });

  it('accepts a group-qualified name', () => {
    expect(checkChanges(particles, [{ param: 'settings.speed', value: 1 }])).toEqual({
      ok: true,
      changes: [{ param: 'speed', value: 1 }],
    });
  });
});

describe('targetManifestSchema', () => {
  it('names the field of a broken manifest', () => {
    const broken = { ...particles, params: { settings: { speed: { type: 'number', min: 10, max: 0, value: 5 } } } };
    const parsed = targetManifestSchema.safeParse(broken);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path.join('.'))).toContain('params.settings.speed.value');
  });

  it('rejects a duplicate parameter name across groups', () => {
    const broken = {
      ...particles,
      params: { a: { speed: { type: 'boolean', value: true } }, b: { speed: { type: 'boolean', value: false } } },
    };
    const parsed = targetManifestSchema.safeParse(broken);
    expect(parsed.error?.issues[0]?.message).toContain('names must be unique across groups');
  });
});
