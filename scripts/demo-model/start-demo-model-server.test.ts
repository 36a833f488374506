import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { jsonSchema, streamText, tool, type ModelMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedModelServer } from '../scripted-model-server/scripted-model-server';
import { demoModelId } from './demo-model-responder';
import { startDemoModelServer } from './start-demo-model-server';

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startDemoModelServer();
});
afterAll(() => server.close());

const noInput = jsonSchema<Record<string, never>>({ type: 'object', properties: {} });
const tools = {
  listTargets: tool({ inputSchema: noInput }),
  getParameters: tool({ inputSchema: noInput }),
  setParameters: tool({ inputSchema: jsonSchema({ type: 'object' }) }),
};

async function step(messages: ModelMessage[]) {
  const model = createOpenAICompatible({ name: 'demo', baseURL: server.url }).chatModel(demoModelId);
  const result = streamText({ model, messages, tools });
  return { toolCalls: await result.toolCalls, text: await result.text };
}

const targetList = {
  ok: true,
  targets: [{ id: 'particles', title: 'Particle field', description: 'Particles.', active: true }],
};

describe('the demo model server (the OpenAI chat completions stream of npm start)', () => {
  it('answers through the AI SDK provider with a tool call first, then with text from the tool results', async () => {
    const first = await step([{ role: 'user', content: 'make the particles faster' }]);
    expect(first.toolCalls.map((call) => call.toolName)).toEqual(['listTargets']);
    const callId = first.toolCalls[0]!.toolCallId;
    expect(callId).toMatch(/^call_demo_/);
    const afterList = await step([
      { role: 'user', content: 'make the particles faster' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: callId, toolName: 'listTargets', input: {} }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: callId,
            toolName: 'listTargets',
            output: { type: 'json', value: targetList },
          },
        ],
      },
    ]);
    expect(afterList.toolCalls.map((call) => call.toolName)).toEqual(['getParameters']);
    expect(afterList.toolCalls[0]!.toolCallId).not.toBe(callId);
  });

  it('says plainly that it needs the target tools when a request offers none', async () => {
    const model = createOpenAICompatible({ name: 'demo', baseURL: server.url }).chatModel(demoModelId);
    const result = streamText({ model, prompt: 'hello' });
    expect(await result.text).toContain('offers no Splitbrain target tools');
  });
});
