import { describe, expect, it } from 'vitest';
import type { AgentEventDraft } from '../protocol/agent-event';
import type { JsonValue } from '../protocol/json-value';
import { activeTurnOrder } from '../state/branch-tree';
import { replayLog } from '../state/reduce-events';
import { testRuntime } from '../../tests/support/test-runtime';

const sessionId = 'rewound';
const sha = 'b'.repeat(64);
const ref = { blobId: sha, sha256: sha, mime: 'text/plain', size: 1, name: 'part' };
/** Each version's own parts (its html named after it). */
const partsOf = (number: number) => ({ manifest: ref, html: { ...ref, name: `index-${number}.html` }, script: ref });

function turn(turnId: string, speed: number): AgentEventDraft[] {
  const toolCallId = `${turnId}-set`;
  const output: JsonValue = { ok: true, targetId: 'particles', applied: { speed } };
  return [
    { type: 'turn/started', sessionId, turnId, time: 2, data: { userItemId: `user-${turnId}`, text: `${speed}` } },
    {
      type: 'tool/requested',
      sessionId,
      turnId,
      stepId: `step-${turnId}`,
      toolCallId,
      time: 2,
      data: { toolName: 'setParameter', input: { param: 'speed', value: speed } },
    },
    { type: 'tool/started', sessionId, turnId, toolCallId, time: 2, data: {} },
    { type: 'tool/completed', sessionId, turnId, toolCallId, time: 2, data: { output, durationMs: 1 } },
    { type: 'turn/completed', sessionId, turnId, time: 3, data: { reason: 'stop' } },
  ];
}

function version(artifactId: string, number: number): AgentEventDraft[] {
  const ids = { sessionId, artifactId, time: 2 };
  return [
    {
      type: 'artifact/created',
      ...ids,
      data: { kind: 'html-app', version: number, state: 'draft', parts: partsOf(number) },
    },
    { type: 'artifact/ready', ...ids, data: { version: number, state: 'ready', requested: [] } },
    ...(number > 1
      ? [
          {
            type: 'artifact/superseded',
            ...ids,
            data: { version: number - 1, state: 'superseded', by: number },
          } as const,
        ]
      : []),
  ];
}

async function setup() {
  const runtime = testRuntime();
  await runtime.append(sessionId, [
    { type: 'session/created', sessionId, time: 1, data: { title: 'Speeds' } },
    ...turn('a', 12),
    ...version('made-here', 1),
    ...turn('b', 30),
    ...version('made-here', 2),
  ]);
  return runtime;
}

describe('Runtime.rewindSession', () => {
  it('records the rewind, and in mode versions makes the version of then current as a new one', async () => {
    const runtime = await setup();
    const preview = await runtime.rewindPreview(sessionId, 'b');
    expect(preview.values).toEqual([{ targetId: 'particles', values: { speed: 12 } }]);
    expect(preview.versions).toEqual([{ artifactId: 'made-here', version: 1, current: 2 }]);

    const result = await runtime.rewindSession(sessionId, 'b', 'versions');
    expect(result).toEqual({
      values: [{ targetId: 'particles', values: { speed: 12 } }],
      versions: [{ artifactId: 'made-here', restoredFrom: 1, version: 3 }],
    });
    const log = await runtime.read(sessionId, 0);
    const rewind = log.find((event) => event.type === 'rewind/applied');
    expect(rewind).toMatchObject({ turnId: 'b', data: { mode: 'versions', parentTurnId: 'a', fromLeaf: 'b' } });
    expect(log.filter((event) => event.type === 'artifact/created').at(-1)).toMatchObject({
      data: { version: 3, restoredFrom: 1, baseVersion: 2 },
    });
    const state = replayLog(sessionId, log);
    expect(activeTurnOrder(state)).toEqual(['a']);
    expect(state.turnOrder).toEqual(['a', 'b']);
    // Rewinding again to the same point makes no fourth version: the current one has the parts of then.
    expect((await runtime.rewindPreview(sessionId, 'b')).versions).toEqual([]);
  });

  it('changes no target or version in mode conversation, and refuses a turn it does not know', async () => {
    const runtime = await setup();
    expect(await runtime.rewindSession(sessionId, 'b', 'conversation')).toEqual({ values: [], versions: [] });
    const log = await runtime.read(sessionId, 0);
    expect(log.filter((event) => event.type === 'artifact/created')).toHaveLength(2);
    await expect(runtime.rewindSession(sessionId, 'nope', 'values')).rejects.toThrow('no turn nope');
  });
});
