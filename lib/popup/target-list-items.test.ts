import { describe, expect, it } from 'vitest';
import { targetsListResultSchema } from '../protocol/runtime-result-schemas';
import { findEntry, targetListItems } from './target-list-items';

const manifest = (id: string) => ({
  id,
  title: `Title ${id}`,
  description: `About ${id}.`,
  entry: 'index.html',
  params: {},
});
const catalog = {
  targets: [
    { manifest: manifest('particles'), entryPath: 'targets/particles/index.html' },
    { manifest: manifest('my-lamp'), entryUrl: 'http://127.0.0.1:8123/lamp/index.html' },
  ],
  defaultTargetId: 'particles',
};

describe('targetListItems', () => {
  it('marks the active target and where user targets are served from', () => {
    expect(targetListItems(catalog, 'my-lamp')).toEqual([
      { id: 'particles', title: 'Title particles', description: 'About particles.', active: false },
      { id: 'my-lamp', title: 'Title my-lamp', description: 'About my-lamp.', active: true, origin: '127.0.0.1:8123' },
    ]);
  });

  it('finds an entry by id, and nothing without an id', () => {
    expect(findEntry(catalog, 'my-lamp')?.manifest.title).toBe('Title my-lamp');
    expect(findEntry(catalog, undefined)).toBeUndefined();
  });
});

describe('targetsListResultSchema', () => {
  it('accepts the runtime answer with or without an active target', () => {
    expect(
      targetsListResultSchema.safeParse({ catalog, activeTargetId: 'particles', values: { speed: 3 } }).success,
    ).toBe(true);
    expect(targetsListResultSchema.safeParse({ catalog, values: null }).success).toBe(true);
    expect(targetsListResultSchema.safeParse({ catalog: { targets: [{ manifest: { id: 'x' } }] } }).success).toBe(
      false,
    );
  });
});
