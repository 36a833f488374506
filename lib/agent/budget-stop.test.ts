import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { createLanguageModel } from '../providers/create-language-model';
import { runTestTurn } from '../../tests/support/run-test-turn';
import type { ToolCallRequest } from './agent-loop-options';

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(() => server.close());

const threeSteps = {
  turns: [
    {
      steps: [
        { toolCalls: [{ name: 'getParameters', arguments: {} }] },
        { toolCalls: [{ name: 'setParameter', arguments: { param: 'speed', value: 12 } }] },
        { text: 'Done.' },
      ],
    },
  ],
};

async function run(reachedAtCheck: number) {
  server.setScript(threeSteps);
  const requestsBefore = server.requests.length;
  const calls: ToolCallRequest[] = [];
  let checks = 0;
  const { outcome, drafts } = await runTestTurn({
    model: createLanguageModel({
      kind: 'openai-compatible',
      label: 'test',
      baseUrl: server.url,
      model: 'scripted-model',
      apiKey: 'test-key',
      scripted: true,
    }),
    modelId: 'scripted-model',
    executeTool: async (call) => {
      calls.push(call);
      return { ok: true };
    },
    budgetReached: async () => (checks += 1) >= reachedAtCheck,
  });
  return { outcome, drafts, calls, checks, modelCalls: server.requests.length - requestsBefore };
}

describe('a budget reached in the middle of a turn', () => {
  it('stops the turn after the model call and the tool calls in flight, before the next model call', async () => {
    const { outcome, drafts, calls, checks, modelCalls } = await run(1);
    expect(outcome).toBe('budget');
    expect(modelCalls).toBe(1);
    expect(checks).toBe(1);
    expect(calls.map((call) => call.toolName)).toEqual(['getParameters']);
    expect(drafts.at(-1)).toMatchObject({ type: 'turn/completed', data: { reason: 'budget' } });
    expect(drafts.filter((draft) => draft.type === 'step/completed')).toHaveLength(1);
  });

  it('lets the turn run on while no budget is reached, and records the model with each step', async () => {
    const { outcome, drafts, calls, checks } = await run(Number.POSITIVE_INFINITY);
    expect(outcome).toBe('stop');
    expect(checks).toBe(2);
    expect(calls).toHaveLength(2);
    const steps = drafts.filter((draft) => draft.type === 'step/completed');
    expect(steps.map((step) => step.type === 'step/completed' && step.data.model)).toEqual([
      'scripted-model',
      'scripted-model',
      'scripted-model',
    ]);
  });

  it('is not stopped by a check that fails (the worker restarting)', async () => {
    server.setScript({
      turns: [{ steps: [{ toolCalls: [{ name: 'getParameters', arguments: {} }] }, { text: 'Done.' }] }],
    });
    const { outcome } = await runTestTurn({
      model: createLanguageModel({
        kind: 'openai-compatible',
        label: 'test',
        baseUrl: server.url,
        model: 'scripted-model',
        apiKey: 'test-key',
        scripted: true,
      }),
      budgetReached: () => Promise.reject(new Error('Could not establish connection.')),
    });
    expect(outcome).toBe('stop');
  });
});
