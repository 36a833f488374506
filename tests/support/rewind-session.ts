import type { AgentEventDraft } from '../../lib/protocol/agent-event';
import type { JsonObject, JsonValue } from '../../lib/protocol/json-value';
import type { Runtime } from '../../lib/runtime/runtime';
import { CANVAS_TARGET } from './authored-target-fixture';

/** One finished target call as the runtime records it: requested, started, completed with `output`. */
function targetCall(sessionId: string, turnId: string, toolCallId: string, toolName: string, output: JsonValue) {
  const ids = { sessionId, turnId, toolCallId, time: 2 };
  return [
    { type: 'tool/requested', ...ids, stepId: `step-${turnId}`, data: { toolName, input: {} } },
    { type: 'tool/started', ...ids, data: {} },
    { type: 'tool/completed', ...ids, data: { output, durationMs: 1 } },
  ] as AgentEventDraft[];
}

/** Sets `values` on `targetId` in the turn, as a setParameters call the model made. */
function setValues(sessionId: string, turnId: string, targetId: string, values: JsonObject): AgentEventDraft[] {
  const callId = `${turnId}-set-${targetId}`;
  return targetCall(sessionId, turnId, callId, 'setParameters', { ok: true, targetId, applied: values });
}

async function authored(runtime: Runtime, sessionId: string, turnId: string, toolName: string, input: JsonValue) {
  const result = await runtime.executeTool({
    sessionId,
    turnId,
    stepId: `step-${turnId}`,
    toolCallId: `${turnId}-${toolName}`,
    toolName,
    input,
  });
  return result.output as { ok: boolean; targetId: string; version: number };
}

/**
 * A conversation that a rewind has something to do in: turn `a` makes an authored target (version 1) and sets
 * particles' speed to 12 and its radius to 90; turn `b` labels it v2 (version 2) and sets 30 and 50; with `third`,
 * turn `c` labels it v3 (version 3) and sets 40 and 20. Returns the authored target's id.
 */
export async function rewindableSession(runtime: Runtime, sessionId: string, third = false): Promise<string> {
  const started = (turnId: string, parentTurnId: string | null): AgentEventDraft => ({
    type: 'turn/started',
    sessionId,
    turnId,
    time: 2,
    data: { userItemId: `user-${turnId}`, text: `message ${turnId}`, parentTurnId },
  });
  const completed = (turnId: string): AgentEventDraft => ({
    type: 'turn/completed',
    sessionId,
    turnId,
    time: 3,
    data: { reason: 'stop' },
  });
  await runtime.append(sessionId, [
    { type: 'session/created', sessionId, time: 1, data: { title: 'Rewind' } },
    started('a', null),
  ]);
  const { targetId } = await authored(runtime, sessionId, 'a', 'createTarget', CANVAS_TARGET);
  await runtime.append(sessionId, [
    ...setValues(sessionId, 'a', 'particles', { speed: 12 }),
    ...setValues(sessionId, 'a', targetId, { radius: 90 }),
    completed('a'),
  ]);
  const turns: [string, string, number, number, number][] = [['b', 'a', 2, 30, 50]];
  if (third) turns.push(['c', 'b', 3, 40, 20]);
  for (const [turnId, parent, version, speed, radius] of turns) {
    await runtime.append(sessionId, [started(turnId, parent)]);
    await authored(runtime, sessionId, turnId, 'updateTarget', {
      targetId,
      baseVersion: version - 1,
      edits: [{ part: 'script', find: `var label = 'v${version - 1}';`, replace: `var label = 'v${version}';` }],
    });
    await runtime.append(sessionId, [
      ...setValues(sessionId, turnId, 'particles', { speed }),
      ...setValues(sessionId, turnId, targetId, { radius }),
      completed(turnId),
    ]);
  }
  return targetId;
}
