import { describe, expect, it, vi } from 'vitest';
import type { KeyValueStore } from '../storage/key-value-store';
import { TargetRegistry, USER_TARGETS_KEY } from './target-registry';

const manifest = (id: string) => ({
  id,
  title: `Target ${id}`,
  description: 'A target.',
  entry: 'index.html',
  params: { settings: { speed: { type: 'number', value: 1 } } },
});
const builtInCatalog = {
  targets: [{ manifest: manifest('particles'), entryPath: 'targets/particles/index.html' }],
  defaultTargetId: 'particles',
};

function setup(options: { stored?: unknown; builtIn?: unknown } = {}) {
  const values = new Map<string, unknown>(options.stored === undefined ? [] : [[USER_TARGETS_KEY, options.stored]]);
  const listeners: (() => void)[] = [];
  const storage = {
    get: vi.fn(async (key: string) => values.get(key)),
    set: vi.fn(async (key: string, value: unknown) => void values.set(key, value)),
    onChange: (key: string, listener: () => void) => void (key === USER_TARGETS_KEY && listeners.push(listener)),
  } satisfies KeyValueStore;
  const fetchBuiltIn = vi.fn(async () => options.builtIn ?? builtInCatalog);
  const registry = new TargetRegistry({ fetchBuiltIn, storage });
  const changeElsewhere = (value: unknown) => {
    values.set(USER_TARGETS_KEY, value);
    for (const listener of listeners) listener();
  };
  return { registry, storage, fetchBuiltIn, values, changeElsewhere };
}

const ids = (catalog: { targets: { manifest: { id: string } }[] }) => catalog.targets.map((entry) => entry.manifest.id);

describe('TargetRegistry', () => {
  it('lists the built-in targets and then the stored user targets', async () => {
    const { registry } = setup({ stored: [{ manifest: manifest('lamp'), entryUrl: 'http://127.0.0.1:8123/' }] });
    const catalog = await registry.catalog();
    expect(ids(catalog)).toEqual(['particles', 'lamp']);
    expect(catalog.defaultTargetId).toBe('particles');
    expect((await registry.userTargets()).map((target) => target.entryUrl)).toEqual(['http://127.0.0.1:8123/']);
  });

  it('reads the built-in catalog and the stored list once', async () => {
    const { registry, storage, fetchBuiltIn } = setup();
    await registry.catalog();
    await registry.catalog();
    await registry.userTargets();
    expect(fetchBuiltIn).toHaveBeenCalledTimes(1);
    expect(storage.get).toHaveBeenCalledTimes(1);
  });

  it('reads a broken stored list as no user targets', async () => {
    const { registry } = setup({ stored: [{ manifest: { id: 'lamp' }, entryUrl: 'file:///x' }] });
    expect(ids(await registry.catalog())).toEqual(['particles']);
  });

  it('refuses a broken built-in catalog with what is wrong', async () => {
    const { registry } = setup({ builtIn: { targets: 'none' } });
    await expect(registry.catalog()).rejects.toThrow(/^The target catalog is broken: /);
  });

  it('registers a user target, saves it, and lists it at once', async () => {
    const { registry, values } = setup();
    expect(await registry.register('http://127.0.0.1:8123/index.html', manifest('lamp'))).toEqual({
      targetId: 'lamp',
    });
    expect(values.get(USER_TARGETS_KEY)).toEqual([
      { manifest: manifest('lamp'), entryUrl: 'http://127.0.0.1:8123/index.html' },
    ]);
    expect(ids(await registry.catalog())).toEqual(['particles', 'lamp']);
  });

  it('replaces a user target registered again under the same id', async () => {
    const { registry } = setup();
    await registry.register('http://127.0.0.1:8123/index.html', manifest('lamp'));
    await registry.register('http://127.0.0.1:9000/index.html', manifest('lamp'));
    expect((await registry.userTargets()).map((target) => target.entryUrl)).toEqual([
      'http://127.0.0.1:9000/index.html',
    ]);
  });

  it('refuses a manifest that is invalid or takes a built-in id', async () => {
    const { registry, storage } = setup();
    await expect(registry.register('http://127.0.0.1:8123/index.html', { id: 'lamp' })).rejects.toThrow(
      /manifest\.json/,
    );
    await expect(registry.register('http://127.0.0.1:8123/index.html', manifest('particles'))).rejects.toThrow(
      'A built-in target already uses the id "particles".',
    );
    expect(storage.set).not.toHaveBeenCalled();
  });

  it('unregisters a user target', async () => {
    const { registry } = setup({ stored: [{ manifest: manifest('lamp'), entryUrl: 'http://127.0.0.1:8123/' }] });
    expect(await registry.unregister('lamp')).toEqual({ removed: 'lamp' });
    expect(ids(await registry.catalog())).toEqual(['particles']);
  });

  it('reads the list again when another context changes it', async () => {
    const { registry, changeElsewhere } = setup();
    expect(ids(await registry.catalog())).toEqual(['particles']);
    changeElsewhere([{ manifest: manifest('lamp'), entryUrl: 'http://127.0.0.1:8123/' }]);
    expect(ids(await registry.catalog())).toEqual(['particles', 'lamp']);
  });
});
