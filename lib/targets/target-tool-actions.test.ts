import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { targetManifestSchema } from '../protocol/target-manifest';
import type { JsonObject } from '../protocol/json-value';
import type { StageCommand } from '../protocol/target-wire';
import type { StageDriver } from './stage-driver';
import { executeTool } from './target-tools';
import { toolNames } from '../tools/tool-registry';

const manifest = targetManifestSchema.parse(
  JSON.parse(readFileSync(new URL('../../targets/particles/manifest.json', import.meta.url), 'utf8')),
);
const catalog = { targets: [{ manifest, entryPath: 'targets/particles/index.html' }] };

function fakeStage(): StageDriver & { sent: StageCommand[]; values: JsonObject; active: string | undefined } {
  const stage = {
    sent: [] as StageCommand[],
    values: {
      speed: 8,
      mode: 'auto',
      particle_count: 800,
      color: '#5ec8ff',
      show_vectors: false,
      position: [0, 12, 12],
    } as JsonObject,
    active: undefined as string | undefined,
    async open() {
      stage.active = 'particles';
      return {};
    },
    async send(_targetId: string, command: StageCommand) {
      stage.sent.push(command);
      if (command.type === 'apply') Object.assign(stage.values, command.payload);
      return { ...stage.values };
    },
    async activeTargetId() {
      return stage.active;
    },
  };
  return stage;
}

describe('executeTool', () => {
  it('opens the first target when none is active and returns schema plus current values', async () => {
    const stage = fakeStage();
    const result = await executeTool('getParameters', {}, { catalog, stage });
    expect(result.ok).toBe(true);
    expect(result.note).toContain('opened "particles"');
    expect((result.parameters as Record<string, Record<string, JsonObject>>).settings.speed).toMatchObject({
      type: 'number',
      unit: 'm/s',
      min: 0,
      max: 50,
      default: 8,
      value: 8,
    });
  });

  it('applies a batch and reports the values the target applied', async () => {
    const stage = fakeStage();
    const result = await executeTool(
      'setParameters',
      {
        changes: [
          { param: 'speed', value: 12 },
          { param: 'show_vectors', value: true },
        ],
      },
      { catalog, stage },
    );
    expect(result).toEqual({ ok: true, targetId: 'particles', applied: { speed: 12, show_vectors: true } });
    expect(stage.sent).toEqual([{ type: 'apply', payload: { speed: 12, show_vectors: true } }]);
  });

  it('unwraps { value } wrappers before validating', async () => {
    const result = await executeTool(
      'setParameter',
      { param: 'speed', value: { value: 12 } },
      { catalog, stage: fakeStage() },
    );
    expect(result).toEqual({ ok: true, targetId: 'particles', applied: { speed: 12 } });
  });

  it('reports a clamped value with what was asked', async () => {
    const result = await executeTool('setParameter', { param: 'speed', value: 99 }, { catalog, stage: fakeStage() });
    expect(result).toEqual({
      ok: true,
      targetId: 'particles',
      applied: { speed: 50 },
      clamped: [{ param: 'speed', requested: 99, applied: 50 }],
    });
  });

  it('sends nothing to the target for an unknown parameter', async () => {
    const stage = fakeStage();
    const result = await executeTool('setParameter', { param: 'spd', value: 3 }, { catalog, stage });
    expect(result.ok).toBe(false);
    expect(String(result.error)).toContain('Did you mean "speed"');
    expect(stage.sent).toEqual([]);
  });

  it('rejects malformed input and unknown tools with clear errors', async () => {
    const stage = fakeStage();
    expect(await executeTool('setParameter', { value: 3 }, { catalog, stage })).toEqual({
      ok: false,
      error: 'Invalid input for setParameter: param: Invalid input: expected string, received undefined.',
    });
    expect((await executeTool('launchRockets', {}, { catalog, stage })).error).toBe(
      `Unknown tool "launchRockets". Available tools: ${toolNames.join(', ')}.`,
    );
    expect(toolNames.slice(0, 6)).toEqual([
      'listTargets',
      'openTarget',
      'getParameters',
      'setParameter',
      'setParameters',
      'resetTarget',
    ]);
  });

  it('suggests the closest target id', async () => {
    const result = await executeTool('openTarget', { targetId: 'particle' }, { catalog, stage: fakeStage() });
    expect(result).toEqual({
      ok: false,
      error: 'Target "particle" not found. Did you mean "particles"? Known targets: particles.',
    });
  });

  it('turns a stage failure into an error result', async () => {
    const stage = fakeStage();
    stage.send = async () => {
      throw new Error('The stage tab was closed before the target answered.');
    };
    expect(await executeTool('resetTarget', {}, { catalog, stage })).toEqual({
      ok: false,
      error: 'The stage tab was closed before the target answered.',
    });
  });

  it('adds what the target reported on its own since the last call to the next result about it, once', async () => {
    const reported = ['TypeError: cannot draw'];
    const stage = {
      ...fakeStage(),
      takeTargetErrors: (targetId: string) => (targetId === 'particles' ? reported.splice(0) : []),
    };
    await executeTool('openTarget', { targetId: 'particles' }, { catalog, stage });
    reported.push('RangeError: too many particles');
    const set = await executeTool('setParameter', { param: 'speed', value: 3 }, { catalog, stage });
    expect(set).toMatchObject({ ok: true, applied: { speed: 3 }, targetErrors: ['RangeError: too many particles'] });
    const read = await executeTool('getParameters', {}, { catalog, stage });
    expect(read.targetErrors).toBeUndefined();
    reported.push('late');
    expect((await executeTool('listTargets', {}, { catalog, stage })).targetErrors).toBeUndefined();
    expect(reported).toEqual(['late']);
  });
});
