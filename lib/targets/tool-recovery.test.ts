import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { targetManifestSchema } from '../protocol/target-manifest';
import type { JsonValue } from '../protocol/json-value';
import type { StageDriver } from './stage-driver';
import { executeTool } from './target-tools';
import { recoverToolCall, type StageRecord } from './tool-recovery';

const manifest = targetManifestSchema.parse(
  JSON.parse(readFileSync(new URL('../../targets/particles/manifest.json', import.meta.url), 'utf8')),
);
const catalog = { targets: [{ manifest, entryPath: 'targets/particles/index.html' }], defaultTargetId: 'particles' };
const callKey = 'session-1/call-1';
const call = { toolName: 'setParameter', input: { param: 'speed', value: 12 }, callKey, startedAt: 2_000 };

function record(overrides: Partial<StageRecord> = {}): StageRecord {
  return { greeted: true, startedAt: 1_000, received: new Set(), recent: [], ...overrides };
}

function recover(stageRecord: StageRecord) {
  const runTool = vi.fn((toolName: string, input: JsonValue, stage: StageDriver) =>
    executeTool(toolName, input, { catalog, stage }),
  );
  return { runTool, recovery: recoverToolCall(call, { stageRecord: async () => stageRecord, runTool }) };
}

describe('recoverToolCall', () => {
  it('finds a call never reached the stage when the stage ran before it started and received nothing for it', async () => {
    const { recovery, runTool } = recover(record({ received: new Set(['session-1/other-call']) }));
    expect(await recovery).toEqual({ kind: 'never-reached' });
    expect(runTool).not.toHaveBeenCalled();
  });

  it('rebuilds the output of a call from what the stage recorded for it, without touching a target', async () => {
    const { recovery } = recover(
      record({
        received: new Set([callKey]),
        recent: [
          { callKey: 'session-1/other-call', type: 'apply', targetId: 'particles', state: { speed: 3 } },
          { callKey, type: 'apply', targetId: 'particles', state: { speed: 12 } },
        ],
      }),
    );
    expect(await recovery).toEqual({
      kind: 'recovered',
      output: { ok: true, targetId: 'particles', applied: { speed: 12 } },
    });
  });

  it('reports unknown when the stage received the call but recorded no result for it', async () => {
    const { recovery, runTool } = recover(record({ received: new Set([callKey]) }));
    expect(await recovery).toEqual({ kind: 'unknown' });
    expect(runTool).not.toHaveBeenCalled();
  });

  it('reports unknown when the stage started after the call: it may have been a stage that is gone', async () => {
    const { recovery } = recover(record({ startedAt: 3_000 }));
    expect(await recovery).toEqual({ kind: 'unknown' });
  });

  it('reports unknown when no stage tab is there to ask', async () => {
    const { recovery } = recover(record({ greeted: false }));
    expect(await recovery).toEqual({ kind: 'unknown' });
  });

  it('reports unknown when what the stage recorded does not cover every step of the call', async () => {
    const { recovery, runTool } = recover(
      record({
        received: new Set([callKey]),
        recent: [{ callKey, type: 'open', targetId: 'particles', state: {} }],
      }),
    );
    expect(await recovery).toEqual({ kind: 'unknown' });
    expect(runTool).toHaveBeenCalledTimes(1);
  });
});
