import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchExtension, type ExtensionSession } from './extension-harness';
import { buildProject, copyProject, removeCopy, scaffoldTarget } from './project-copy';
import { manualTool, readInsideTarget, waitUntilReady } from './manual-tool';

const DEMO_ID = 'drop-in-demo';
/** Made by `npm run new:target` in the copy, built and driven with the hand-written one. */
const SCAFFOLD_ID = 'scaffolded-demo';

const demoManifest = {
  id: DEMO_ID,
  title: 'Drop-in demo',
  description:
    'A target written by tests/e2e/drop-in-target.test.ts into a copy of the project: a coloured panel showing a level.',
  entry: 'index.html',
  params: {
    display: {
      level: {
        type: 'integer',
        unit: '%',
        min: 0,
        max: 100,
        step: 1,
        value: 10,
        description: 'How full the gauge is.',
      },
      tint: { type: 'color', value: '#336699', description: 'Background colour as #rrggbb.' },
      mirrored: { type: 'boolean', value: false, description: 'Draw the gauge right to left.' },
    },
  },
};

const demoPage = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>Drop-in demo</title></head>
  <body>
    <p id="view">starting…</p>
    <script src="../bridge.js"></script>
    <script src="app.js"></script>
  </body>
</html>
`;

const demoApp = `(function () {
  'use strict';
  var defaults = { level: 10, tint: '#336699', mirrored: false };
  var state = Object.assign({}, defaults);
  var view = document.getElementById('view');
  function render() {
    view.textContent = 'level ' + state.level + '% on ' + state.tint + (state.mirrored ? ', mirrored' : '');
    document.body.style.background = state.tint;
  }
  var bridge = window.SplitbrainBridge.connect({
    apply: function (changes) {
      Object.keys(changes).forEach(function (name) { if (name in defaults) state[name] = changes[name]; });
      render();
    },
    reset: function () { state = Object.assign({}, defaults); render(); },
    getState: function () { return Object.assign({}, state); }
  });
  render();
  bridge.ready();
})();
`;

function writeTarget(copy: string, id: string, manifest: unknown, files: Record<string, string>): string {
  const folder = join(copy, 'targets', id);
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'manifest.json'),
    typeof manifest === 'string' ? manifest : JSON.stringify(manifest, null, 2),
  );
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  return join(folder, 'manifest.json');
}

const brokenManifests: { why: string; field: string; manifest: unknown }[] = [
  {
    why: 'a default of the wrong type',
    field: 'params.display.level.value',
    manifest: {
      ...demoManifest,
      id: 'drop-in-broken',
      params: { display: { level: { ...demoManifest.params.display.level, value: 'high' } } },
    },
  },
  {
    why: 'an unknown parameter type',
    field: 'params.display.level.type',
    manifest: {
      ...demoManifest,
      id: 'drop-in-broken',
      params: { display: { level: { ...demoManifest.params.display.level, type: 'float' } } },
    },
  },
  {
    why: 'a missing title',
    field: 'title',
    manifest: { ...demoManifest, id: 'drop-in-broken', title: undefined },
  },
];

describe('drop-in: a target folder added to a copy of the project', () => {
  let copy: string;
  let session: ExtensionSession | undefined;
  let control: Page;

  beforeAll(() => {
    copy = copyProject();
    expect(scaffoldTarget(copy, SCAFFOLD_ID)).toContain(`Created ${join(copy, 'targets', SCAFFOLD_ID)}`);
  });

  afterAll(async () => {
    await session?.close();
    if (copy) removeCopy(copy);
  });

  it.each(brokenManifests)(
    'a manifest with $why fails the build, naming the file and the field',
    async ({ field, manifest }) => {
      const file = writeTarget(copy, 'drop-in-broken', manifest, { 'index.html': demoPage });
      try {
        const build = await buildProject(copy);
        expect(build.exitCode, build.output).not.toBe(0);
        expect(build.output).toContain(`${file}: ${field}:`);
      } finally {
        rmSync(join(copy, 'targets', 'drop-in-broken'), { recursive: true, force: true });
      }
    },
  );

  it('with only the new folder added, the production build lists the new target, opens it sandboxed and controls it', async () => {
    writeTarget(copy, DEMO_ID, demoManifest, { 'index.html': demoPage, 'app.js': demoApp });
    const build = await buildProject(copy);
    expect(build.exitCode, build.output).toBe(0);

    const output = join(copy, '.output/chrome-mv3');
    const extensionManifest = JSON.parse(readFileSync(join(output, 'manifest.json'), 'utf8')) as {
      sandbox?: { pages: string[] };
    };
    expect(extensionManifest.sandbox?.pages).toContain(`targets/${DEMO_ID}/index.html`);
    expect(existsSync(join(output, 'targets', DEMO_ID, 'app.js'))).toBe(true);

    session = await launchExtension(output);
    control = await session.browser.newPage();
    await control.goto(`chrome-extension://${session.extensionId}/options.html`);
    const call = (toolName: string, input: unknown) => manualTool(control, toolName, input);

    const listed = await call('listTargets', {});
    expect(listed.targets).toContainEqual(
      expect.objectContaining({ id: DEMO_ID, title: demoManifest.title, description: demoManifest.description }),
    );

    expect(await call('openTarget', { targetId: DEMO_ID })).toMatchObject({
      ok: true,
      targetId: DEMO_ID,
      title: demoManifest.title,
    });
    const frame = await session.targetFrame(DEMO_ID);
    await waitUntilReady(frame);
    expect(await frame.evaluate(() => window.origin)).toBe('null');

    const read = await call('getParameters', {});
    expect(read.parameters?.display?.level).toMatchObject({
      type: 'integer',
      unit: '%',
      min: 0,
      max: 100,
      default: 10,
      value: 10,
    });

    const set = await call('setParameters', {
      changes: [
        { param: 'level', value: 73 },
        { param: 'tint', value: '#AA3300' },
        { param: 'mirrored', value: true },
      ],
    });
    expect(set).toMatchObject({ ok: true, targetId: DEMO_ID, applied: { level: 73, tint: '#aa3300', mirrored: true } });
    const inside = await readInsideTarget(frame);
    expect(inside.state).toEqual({ level: 73, tint: '#aa3300', mirrored: true });
    expect(await frame.$eval('#view', (view) => view.textContent)).toBe('level 73% on #aa3300, mirrored');

    expect(await call('setParameter', { param: 'level', value: 250 })).toMatchObject({
      ok: true,
      applied: { level: 100 },
      clamped: [{ param: 'level', requested: 250, applied: 100 }],
    });
    expect((await readInsideTarget(frame)).state.level).toBe(100);

    const unknown = await call('setParameter', { param: 'levl', value: 5 });
    expect(unknown.ok).toBe(false);
    expect(unknown.error).toContain(
      'Parameter "levl" not found. Did you mean "level"? Known parameters: level, tint, mirrored.',
    );

    expect(await call('resetTarget', {})).toMatchObject({
      ok: true,
      values: { level: 10, tint: '#336699', mirrored: false },
    });
    expect((await readInsideTarget(frame)).state).toEqual({ level: 10, tint: '#336699', mirrored: false });
  });

  it('a target made by npm run new:target is listed by the same build, opens sandboxed on the shared params helper and is controlled', async () => {
    expect(session, 'the build and session of the test above').toBeDefined();
    const output = join(copy, '.output/chrome-mv3');
    for (const file of ['manifest.js', 'app.js', 'index.html'])
      expect(existsSync(join(output, 'targets', SCAFFOLD_ID, file)), file).toBe(true);
    const call = (toolName: string, input: unknown) => manualTool(control, toolName, input);
    expect((await call('listTargets', {})).targets).toContainEqual(
      expect.objectContaining({ id: SCAFFOLD_ID, title: 'Scaffolded demo' }),
    );
    expect(await call('openTarget', { targetId: SCAFFOLD_ID })).toMatchObject({ ok: true, targetId: SCAFFOLD_ID });
    const frame = await session!.targetFrame(SCAFFOLD_ID);
    await waitUntilReady(frame);
    expect(await frame.evaluate(() => window.origin)).toBe('null');
    const read = await call('getParameters', {});
    expect(read.parameters?.display?.level).toMatchObject({ type: 'integer', unit: '%', default: 50, value: 50 });
    expect(read.parameters?.display?.bar_height).toMatchObject({ type: 'number', unit: 'px', default: 40, value: 40 });
    expect(
      await call('setParameters', {
        changes: [
          { param: 'level', value: 85 },
          { param: 'bar_height', value: 12 },
        ],
      }),
    ).toMatchObject({ ok: true, applied: { level: 85, bar_height: 12 } });
    expect((await readInsideTarget(frame)).state).toEqual({ level: 85, bar_height: 12 });
    expect(await frame.$eval('#label', (label) => label.textContent)).toBe('85% · 12 px');
    expect(await call('setParameter', { param: 'bar_height', value: 999 })).toMatchObject({
      ok: true,
      clamped: [{ param: 'bar_height', requested: 999, applied: 200 }],
    });
    expect(await call('resetTarget', {})).toMatchObject({ ok: true, values: { level: 50, bar_height: 40 } });
    expect((await readInsideTarget(frame)).state).toEqual({ level: 50, bar_height: 40 });
  });
});
