import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { discoverTargets, manifestScripts } from './discover-targets';
import { createTarget } from './new-target';

const sharedScripts = resolve(import.meta.dirname, '../targets');

interface Handlers {
  apply(changes: Record<string, unknown>): void;
  reset(): void;
  getState(): Record<string, unknown>;
}

/** Runs the scaffold's page scripts in order, as the stage's frame would, with a fake DOM and bridge. */
function runScaffold(folder: string, id: string) {
  const elements: Record<string, { style: Record<string, string>; textContent: string }> = {};
  let handlers: Handlers | undefined;
  let ready = false;
  const window: Record<string, unknown> = {
    SplitbrainBridge: {
      connect(given: Handlers) {
        handlers = given;
        return { ready: () => (ready = true) };
      },
    },
  };
  const document = {
    getElementById: (name: string) => (elements[name] ??= { style: {}, textContent: '' }),
  };
  const [target] = discoverTargets(join(folder, '..')).filter((found) => found.entry.manifest.id === id);
  const scripts = [
    manifestScripts([target])[0].contents,
    readFileSync(join(sharedScripts, 'params.js'), 'utf8'),
    readFileSync(join(folder, 'app.js'), 'utf8'),
  ];
  for (const script of scripts) runInNewContext(script, { window, document });
  return { handlers: handlers!, elements, ready: () => ready };
}

describe('npm run new:target', () => {
  it('creates a target the build accepts, whose app applies, resets and reports its two parameters', () => {
    const root = mkdtempSync(join(tmpdir(), 'splitbrain-new-target-'));
    const folder = createTarget(root, 'my-gauge');
    const [found] = discoverTargets(root);
    expect(found.entry).toMatchObject({ entryPath: 'targets/my-gauge/index.html', manifest: { id: 'my-gauge' } });
    expect(found.entry.manifest.title).toBe('My gauge');
    expect(found.files.map((file) => file.slice(folder.length + 1)).sort()).toEqual([
      'app.js',
      'index.html',
      'manifest.json',
      'style.css',
    ]);
    const page = readFileSync(join(folder, 'index.html'), 'utf8');
    const scripts = [...page.matchAll(/<script src="([^"]+)"><\/script>/g)].map((match) => match[1]);
    expect(scripts).toEqual(['../bridge.js', 'manifest.js', '../params.js', 'app.js']);
    const { display } = found.entry.manifest.params;
    expect(display.level).toMatchObject({ type: 'integer', unit: '%', value: 50 });
    expect(display.bar_height).toMatchObject({ type: 'number', unit: 'px', value: 40 });

    const { handlers, elements, ready } = runScaffold(folder, 'my-gauge');
    expect(ready()).toBe(true);
    expect(handlers.getState()).toEqual({ level: 50, bar_height: 40 });
    handlers.apply({ level: 73.4, unknown: 1 });
    expect(handlers.getState()).toEqual({ level: 73, bar_height: 40 });
    expect(elements.bar.style.width).toBe('73%');
    expect(elements.label.textContent).toBe('73% · 40 px');
    expect(() => handlers.apply({ level: 20, bar_height: 'tall' })).toThrow('bar_height: expected a number');
    expect(handlers.getState()).toEqual({ level: 73, bar_height: 40 });
    handlers.reset();
    expect(handlers.getState()).toEqual({ level: 50, bar_height: 40 });
  });

  it('refuses a bad id and an existing folder, naming the reason', () => {
    const root = mkdtempSync(join(tmpdir(), 'splitbrain-new-target-'));
    for (const bad of ['', 'My-Target', '-gauge', 'gauge/../x', 'a'.repeat(61)])
      expect(() => createTarget(root, bad), bad).toThrow('is not a valid target id');
    mkdirSync(join(root, 'taken'));
    expect(() => createTarget(root, 'taken')).toThrow(`${join(root, 'taken')} already exists`);
  });
});
