import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import type { Script } from '../../scripts/scripted-model-server/script';
import {
  AGENT_EVENT_SCHEMA_VERSION,
  isDurableType,
  type AgentEvent,
  type AgentEventDraft,
} from '../protocol/agent-event';
import type { JsonValue } from '../protocol/json-value';
import { createLanguageModel } from '../providers/create-language-model';
import { replayLog } from '../state/reduce-events';
import { runTestTurn } from '../../tests/support/run-test-turn';
import type { ToolCallRequest } from './agent-loop-options';

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(() => server.close());

async function run(
  script: Script,
  options: { maxSteps?: number; abortAfterMs?: number; output?: (call: ToolCallRequest) => JsonValue } = {},
) {
  server.setScript(script);
  const calls: ToolCallRequest[] = [];
  const controller = new AbortController();
  if (options.abortAfterMs !== undefined) setTimeout(() => controller.abort(), options.abortAfterMs);
  const turnStarted: AgentEventDraft = {
    type: 'turn/started',
    sessionId: 's',
    turnId: 't',
    time: 0,
    data: { userItemId: 'u', text: 'go' },
  };
  const { outcome, drafts: emitted } = await runTestTurn({
    model: createLanguageModel({
      kind: 'openai-compatible',
      label: 'test',
      baseUrl: server.url,
      model: 'scripted-model',
      apiKey: 'test-key',
      scripted: true,
    }),
    executeTool: async (call) => {
      calls.push(call);
      return options.output?.(call) ?? { ok: true };
    },
    signal: controller.signal,
    maxSteps: options.maxSteps,
  });
  const drafts = [turnStarted, ...emitted];
  let seq = 0;
  const events = drafts.map((draft) => {
    const durable = isDurableType(draft.type);
    if (durable) seq += 1;
    return { ...draft, schemaVersion: AGENT_EVENT_SCHEMA_VERSION, seq, durable } as AgentEvent;
  });
  return { outcome, events, calls, state: replayLog('s', events) };
}

describe('runAgentTurn against the scripted OpenAI-compatible server', () => {
  it('streams text, runs each tool call once it is complete, and loops until the model answers in text', async () => {
    const { outcome, calls, state, events } = await run({
      turns: [
        {
          steps: [
            { toolCalls: [{ name: 'getParameters', arguments: {} }] },
            { toolCalls: [{ name: 'setParameter', arguments: { param: 'speed', value: 12 } }] },
            { text: '速度已设为 12 m/s 🚀' },
          ],
        },
      ],
    });
    expect(outcome).toBe('stop');
    expect(calls.map((call) => [call.toolName, call.input])).toEqual([
      ['getParameters', {}],
      ['setParameter', { param: 'speed', value: 12 }],
    ]);
    const turn = state.turns.t;
    expect(turn.status).toBe('completed');
    const text = Object.values(state.items).map((item) => item.text);
    expect(text).toEqual(['速度已设为 12 m/s 🚀']);
    expect(text.join('')).not.toContain('\ufffd');
    expect(events.filter((event) => event.type === 'tool/input-delta').length).toBeGreaterThan(1);
    const secondRequest = server.requests[1].body as { messages: { role: string; content: string }[] };
    expect(secondRequest.messages.at(-1)).toMatchObject({ role: 'tool', content: '{"ok":true}' });
  });

  it('stops a step that repeats the previous call instead of looping', async () => {
    const { outcome, calls, state } = await run({
      turns: [
        {
          steps: [
            { toolCalls: [{ name: 'getParameters', arguments: {} }] },
            { toolCalls: [{ name: 'getParameters', arguments: {} }] },
            { text: 'never' },
          ],
        },
      ],
    });
    expect(outcome).toBe('repeated-call');
    expect(calls).toHaveLength(1);
    expect(state.notifications[0].message).toContain('repeated the same tool call');
  });

  it('stops at the step cap', async () => {
    const steps = Array.from({ length: 6 }, (_, index) => ({
      toolCalls: [{ name: 'setParameter', arguments: { param: 'speed', value: index } }],
    }));
    const { outcome, calls, state } = await run({ turns: [{ steps }] }, { maxSteps: 3 });
    expect(outcome).toBe('step-cap');
    expect(calls).toHaveLength(3);
    expect(state.turns.t).toMatchObject({ status: 'completed', reason: 'step-cap' });
  });

  it('ends a truncated stream as a stream error with the partial text kept', async () => {
    const { outcome, state, events } = await run({
      turns: [{ steps: [{ truncate: { text: 'Half of a sentence' } }] }],
    });
    expect(outcome).toBe('interrupted');
    expect(events.some((event) => event.type === 'stream/error')).toBe(true);
    expect(state.turns.t.status).toBe('interrupted');
    const item = Object.values(state.items)[0];
    expect(item).toMatchObject({ status: 'interrupted', text: 'Half of a sentence' });
  });

  it('records an abort as turn/aborted and keeps what was shown', async () => {
    const { outcome, state } = await run(
      { turns: [{ steps: [{ text: 'one two three four five six seven eight nine ten', delayMs: 40 }] }] },
      { abortAfterMs: 150 },
    );
    expect(outcome).toBe('aborted');
    expect(state.turns.t.status).toBe('aborted');
    const item = Object.values(state.items)[0];
    expect(item?.status ?? 'interrupted').toBe('interrupted');
  });
});
