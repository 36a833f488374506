import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Frame, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flattenParameters, type ParameterSpec, type TargetManifest } from '../../lib/protocol/target-manifest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import {
  configureEndpoint,
  launchExtension,
  sendMessage,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';
import {
  invalidValues,
  nonDefaultValue,
  outOfRangeValue,
  readTargetManifests,
  sameValue,
  typoOf,
  type ParameterValue,
} from './parameter-values';
import { manualTool, readInsideTarget, waitUntilReady, type ToolOutput } from './manual-tool';

const root = resolve(import.meta.dirname, '../..');
/** Read at collection time, so a target dropped into targets/ is covered without editing this file. */
const manifests = readTargetManifests(join(root, 'targets'));

interface DocumentedRules {
  /** Values used instead of the derived ones, because of a rule between parameters that the manifest documents. */
  values?: Record<string, ParameterValue>;
  /** Parameters whose clamp check goes below min: clamped to max they would break a documented rule. */
  clampBelow?: string[];
  /** What the target applies instead of a valid request, as its manifest documents. */
  appliedInstead?: Record<string, ParameterValue>;
}

const documentedRules: Record<string, DocumentedRules> = {
  // "y_min must be less than y_max; with scale log it must be greater than 0": y_min stays below the
  // default y_max and above 0, and is set before scale becomes "log" (parameters go in manifest order).
  chart: { values: { y_min: 10 }, clampBelow: ['y_min'] },
  // "until then [the user pressed Start sound] setting true is ignored and playing reads back false".
  synth: { appliedInstead: { playing: false } },
};

function parameterList(manifest: TargetManifest) {
  return [...flattenParameters(manifest)].map(([name, { group, spec }], index) => ({ name, group, spec, index }));
}

function defaults(manifest: TargetManifest): Record<string, ParameterValue> {
  return Object.fromEntries(parameterList(manifest).map(({ name, spec }) => [name, spec.value]));
}

function expectSame(actual: unknown, expected: unknown, what: string): void {
  expect(
    sameValue(actual, expected),
    `${what}: got ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`,
  ).toBe(true);
}

function expectAllSame(actual: Record<string, unknown>, expected: Record<string, unknown>, what: string): void {
  for (const [name, value] of Object.entries(expected)) expectSame(actual[name], value, `${what} ${name}`);
}

/** Reads a PNG's size from its IHDR chunk; undefined when the file is not a PNG. */
function pngSize(file: string): { width: number; height: number } | undefined {
  const bytes = readFileSync(file);
  if (bytes.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('every built-in target through the tool path (tool/manual)', () => {
  let session: ExtensionSession;
  let control: Page;

  beforeAll(async () => {
    session = await launchExtension();
    control = await session.browser.newPage();
    await control.goto(`chrome-extension://${session.extensionId}/options.html`);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('finds the built-in targets in targets/ and listTargets lists each of them', async () => {
    expect(manifests.map((manifest) => manifest.id)).toEqual(
      expect.arrayContaining(['chart', 'particles', 'scene3d', 'synth', 'typography']),
    );
    const listed = await manualTool(control, 'listTargets', {});
    expect(listed.ok).toBe(true);
    for (const manifest of manifests)
      expect(listed.targets).toContainEqual(expect.objectContaining({ id: manifest.id, title: manifest.title }));
  });

  for (const manifest of manifests) {
    const id = manifest.id;
    const rules = documentedRules[id] ?? {};
    const parameters = parameterList(manifest);
    const names = parameters.map((parameter) => parameter.name);

    describe(id, () => {
      let frame: Frame;
      const call = (toolName: string, input: unknown) => manualTool(control, toolName, input);

      it('opens sandboxed, and getParameters reports the manifest schema with the defaults in effect inside the frame', async () => {
        const opened = await call('openTarget', { targetId: id });
        expect(opened).toMatchObject({ ok: true, targetId: id });
        frame = await session.targetFrame(id);
        await waitUntilReady(frame);
        // The stage tab opens in front; behind the control page its animation pauses and leaves the CPU to the tool path.
        await control.bringToFront();
        expect(await frame.evaluate(() => window.origin)).toBe('null');

        const read = await call('getParameters', {});
        expect(read).toMatchObject({ ok: true, targetId: id });
        for (const { name, group, spec } of parameters) {
          const { value: defaultValue, ...schema } = spec;
          expect(read.parameters?.[group]?.[name], name).toEqual({
            ...schema,
            default: defaultValue,
            value: defaultValue,
          });
        }
        expectAllSame((await readInsideTarget(frame)).state, defaults(manifest), 'inside the frame, default');
      });

      it('sets every parameter to a valid non-default value and reads it back inside the frame', async () => {
        const expected: Record<string, unknown> = {};
        for (const { name, spec, index } of parameters) {
          const value = rules.values?.[name] ?? nonDefaultValue(spec, index);
          expect(value, `${name} has a value other than its default`).toBeDefined();
          const before = await readInsideTarget(frame);
          const result = await call('setParameter', { param: name, value });
          expect(result, `${name} = ${JSON.stringify(value)}`).toMatchObject({ ok: true, targetId: id });
          expect(result.clamped, name).toBeUndefined();
          const applied = name in (rules.appliedInstead ?? {}) ? rules.appliedInstead![name] : value;
          expectSame(result.applied?.[name], applied, `${name}: the tool reports`);
          const after = await readInsideTarget(frame);
          expectSame(after.state[name], applied, `${name}: inside the frame`);
          expect(after.applyCount, name).toBe(before.applyCount + 1);
          expected[name] = applied;
        }
        // Each value is still in effect after all the others were set.
        expectAllSame((await readInsideTarget(frame)).state, expected, 'inside the frame at the end,');
        const read = await call('getParameters', {});
        for (const { name, group } of parameters)
          expectSame(read.parameters?.[group]?.[name]?.value, expected[name], `getParameters ${name}`);
      });

      it('refuses a wrongly typed value of every parameter with an error naming it, and changes nothing', async () => {
        const before = await readInsideTarget(frame);
        for (const { name, spec } of parameters) {
          for (const invalid of invalidValues(spec)) {
            const result = await call('setParameter', { param: name, value: invalid.value });
            expect(result.ok, `${name} = ${invalid.why} must fail`).toBe(false);
            expect(result.error, `${name} = ${invalid.why}`).toContain(`Parameter "${name}"`);
            expect(result.error).toContain('Nothing was changed');
          }
        }
        // A batch is all or nothing: one valid and one invalid change apply neither.
        const [first, second] = parameters;
        if (first && second) {
          const batch = await call('setParameters', {
            changes: [
              { param: first.name, value: first.spec.value },
              { param: second.name, value: invalidValues(second.spec)[0].value },
            ],
          });
          expect(batch.ok).toBe(false);
          expect(batch.error).toContain(`Parameter "${second.name}"`);
        }
        const after = await readInsideTarget(frame);
        expect(after.applyCount).toBe(before.applyCount);
        expect(after.state).toEqual(before.state);
      });

      it('answers an unknown parameter name with the closest valid name and the list of valid ones', async () => {
        const before = await readInsideTarget(frame);
        for (const { name, spec } of parameters) {
          const typo = typoOf(name);
          const result = await call('setParameter', { param: typo, value: spec.value });
          expect(result.ok).toBe(false);
          expect(result.error).toContain(`Parameter "${typo}" not found.`);
          expect(result.error?.match(/Did you mean (.*?)\?/)?.[1], `suggestion for "${typo}"`).toContain(`"${name}"`);
          expect(result.error).toContain(`Known parameters: ${names.join(', ')}.`);
        }
        expect((await readInsideTarget(frame)).applyCount).toBe(before.applyCount);
      });

      it('clamps out-of-range numbers and reports the requested and the applied value', async () => {
        const reset = await call('resetTarget', {});
        expect(reset.ok).toBe(true);
        const bounded = parameters.map((parameter) => ({
          ...parameter,
          outOfRange: outOfRangeValue(parameter.spec, rules.clampBelow?.includes(parameter.name)),
        }));
        for (const { name, outOfRange } of bounded) {
          if (!outOfRange) continue;
          const result = await call('setParameter', { param: name, value: outOfRange.requested });
          expect(result, `${name} = ${JSON.stringify(outOfRange.requested)}`).toMatchObject({
            ok: true,
            clamped: [{ param: name, requested: outOfRange.requested }],
          });
          expectSame(result.clamped?.[0].applied, outOfRange.applied, `${name}: clamped.applied`);
          expectSame(result.applied?.[name], outOfRange.applied, `${name}: applied`);
          expectSame((await readInsideTarget(frame)).state[name], outOfRange.applied, `${name}: inside the frame`);
        }
        const boundedSpecs = parameters.filter(
          ({ spec }) =>
            (spec.type === 'number' || spec.type === 'integer' || spec.type === 'array') &&
            (spec.min !== undefined || spec.max !== undefined),
        );
        expect(bounded.filter((parameter) => parameter.outOfRange).length).toBe(boundedSpecs.length);
      });

      it('resets every parameter to its default', async () => {
        const result = await call('resetTarget', {});
        expect(result).toMatchObject({ ok: true, targetId: id });
        expectAllSame(result.values ?? {}, defaults(manifest), 'resetTarget reports');
        expectAllSame((await readInsideTarget(frame)).state, defaults(manifest), 'inside the frame after reset,');
      });

      it('has a screenshot in docs/targets (taken from the stage as <id>-stage.png only when <id>.png does not exist)', async () => {
        let screenshot = join(root, 'docs/targets', `${id}.png`);
        if (!existsSync(screenshot)) {
          const stage = await session.stagePage();
          await stage.bringToFront();
          screenshot = join(root, 'docs/targets', `${id}-stage.png`);
          writeFileSync(screenshot, await stage.screenshot({ type: 'png' }));
        }
        const size = pngSize(screenshot);
        expect(size, `${screenshot} is a PNG`).toBeDefined();
        expect(size!.width).toBeGreaterThanOrEqual(400);
        expect(size!.height).toBeGreaterThanOrEqual(250);
      });
    });
  }

  it('synth: plays once the user has pressed Start sound inside it, and then follows playing', async () => {
    expect(await manualTool(control, 'openTarget', { targetId: 'synth' })).toMatchObject({ ok: true });
    const frame = await session.targetFrame('synth');
    await waitUntilReady(frame);
    expect(await manualTool(control, 'setParameter', { param: 'playing', value: true })).toMatchObject({
      ok: true,
      applied: { playing: false },
    });
    const stage = await session.stagePage();
    await stage.bringToFront();
    await frame.click('#start');
    await frame.waitForFunction(
      () =>
        (
          window as unknown as { SplitbrainBridge: { currentState(): { playing: boolean } } }
        ).SplitbrainBridge.currentState().playing,
      { polling: 100, timeout: 10_000 },
    );
    expect(await manualTool(control, 'setParameter', { param: 'playing', value: false })).toMatchObject({
      ok: true,
      applied: { playing: false },
    });
    expect((await readInsideTarget(frame)).state.playing).toBe(false);
    expect(await manualTool(control, 'setParameter', { param: 'playing', value: true })).toMatchObject({
      ok: true,
      applied: { playing: true },
    });
    expect((await readInsideTarget(frame)).state.playing).toBe(true);
    await manualTool(control, 'setParameter', { param: 'playing', value: false });
    await control.bringToFront();
  });

  it("chart: a combination the manifest forbids (log scale with y_min ≤ 0) is refused with the target's reason, and nothing changes", async () => {
    expect(await manualTool(control, 'openTarget', { targetId: 'chart' })).toMatchObject({ ok: true });
    const frame = await session.targetFrame('chart');
    await waitUntilReady(frame);
    await control.bringToFront();
    expect(await manualTool(control, 'resetTarget', {})).toMatchObject({
      ok: true,
      values: { scale: 'linear', y_min: 0 },
    });
    const before = await readInsideTarget(frame);
    const refused = await manualTool(control, 'setParameter', { param: 'scale', value: 'log' });
    expect(refused.ok).toBe(false);
    expect(refused.error).toContain('scale "log" needs y_min > 0');
    expect((await readInsideTarget(frame)).state).toEqual(before.state);
    const together = await manualTool(control, 'setParameters', {
      changes: [
        { param: 'scale', value: 'log' },
        { param: 'y_min', value: 5 },
      ],
    });
    expect(together).toMatchObject({ ok: true, applied: { scale: 'log', y_min: 5 } });
    expect((await readInsideTarget(frame)).state).toMatchObject({ scale: 'log', y_min: 5 });
    await manualTool(control, 'resetTarget', {});
  });

  it('README shows the screenshot of every built-in target', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const missing = manifests
      .map((manifest) => manifest.id)
      .filter((id) => !readme.includes(`docs/targets/${id}.png`) && !readme.includes(`docs/targets/${id}-stage.png`));
    expect(missing, 'targets whose screenshot README.md does not show').toEqual([]);
  });
});

interface ChatRequestBody {
  messages: { role: string; content?: unknown }[];
}

function toolResults(body: unknown): ToolOutput[] {
  return (body as ChatRequestBody).messages
    .filter((message) => message.role === 'tool')
    .map((message) => JSON.parse(String(message.content)) as ToolOutput);
}

describe('one target through the side panel and the scripted model (the real model path)', () => {
  const manifest = manifests.find((candidate) => candidate.id === 'chart')!;
  const rules = documentedRules.chart;
  const parameters = parameterList(manifest);
  const changes = parameters.map(({ name, spec, index }) => ({
    param: name,
    value: rules.values?.[name] ?? nonDefaultValue(spec, index)!,
  }));
  const seed = manifest.params.data.seed as Extract<ParameterSpec, { type: 'integer' | 'number' }>;
  let server: ScriptedModelServer;
  let session: ExtensionSession;

  beforeAll(async () => {
    server = await startScriptedModelServer({
      script: {
        turns: [
          {
            steps: [
              { toolCalls: [{ name: 'openTarget', arguments: { targetId: 'chart' } }] },
              { toolCalls: [{ name: 'getParameters', arguments: {} }] },
              { toolCalls: [{ name: 'setParameters', arguments: { changes } }] },
              { toolCalls: [{ name: 'setParameter', arguments: { param: 'seed', value: 'forty-two' } }] },
              { toolCalls: [{ name: 'setParameter', arguments: { param: 'smoothin', value: 5 } }] },
              { toolCalls: [{ name: 'setParameter', arguments: { param: 'points', value: 100_000 } }] },
              { text: 'The chart now shows every change; points were clamped to 500.' },
            ],
          },
        ],
      },
    });
    session = await launchExtension();
    await configureEndpoint(session, server.url);
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it('sets every chart parameter, gets precise errors back, and the frame shows the applied values', async () => {
    expect(seed.type).toBe('integer');
    const panel = await session.openPanel();
    await sendMessage(panel, 'Change every setting of the chart.');
    expect(await waitForTurnEnd(panel, 0, 60_000)).toBe('completed');

    const results = toolResults(server.requests.at(-1)!.body);
    expect(results).toHaveLength(6);
    const [opened, read, set, wrongType, unknown, clamped] = results;
    expect(opened).toMatchObject({ ok: true, targetId: 'chart' });
    expect(read.parameters?.data?.seed).toMatchObject({
      type: 'integer',
      min: seed.min,
      max: seed.max,
      default: seed.value,
      value: seed.value,
    });
    expect(set.ok).toBe(true);
    for (const change of changes)
      expectSame(set.applied?.[change.param], change.value, `setParameters ${change.param}`);
    expect(wrongType).toMatchObject({ ok: false });
    expect(wrongType.error).toContain('Parameter "seed" expects a finite number');
    expect(unknown.error).toContain('Parameter "smoothin" not found. Did you mean "smoothing"?');
    expect(unknown.error).toContain(`Known parameters: ${parameters.map(({ name }) => name).join(', ')}.`);
    expect(clamped).toMatchObject({
      ok: true,
      applied: { points: 500 },
      clamped: [{ param: 'points', requested: 100_000, applied: 500 }],
    });

    const frame = await session.targetFrame('chart');
    const inside = await readInsideTarget(frame);
    for (const change of changes)
      expectSame(
        inside.state[change.param],
        change.param === 'points' ? 500 : change.value,
        `inside the frame ${change.param}`,
      );
    expect(inside.applyCount).toBe(2);

    const cards = await panel.$$eval('section.tool-card', (items) =>
      items.map((item) => `${item.getAttribute('aria-label')}:${item.getAttribute('data-status')}`),
    );
    expect(cards).toEqual([
      'Tool call openTarget:done',
      'Tool call getParameters:done',
      'Tool call setParameters:done',
      'Tool call setParameter:failed',
      'Tool call setParameter:failed',
      'Tool call setParameter:done',
    ]);
    // The collapsed card of the clamped call says so, without being opened.
    const notes = await panel.$$eval('section.tool-card', (items) =>
      items.map((item) => item.querySelector('.tool-summary-warning')?.textContent ?? ''),
    );
    expect(notes).toEqual(['', '', '', '', '', 'Clamped to range: points 100000 → 500']);
    await panel.close();
  });
});
