import { createOpenAI } from '@ai-sdk/openai';
import { jsonSchema, streamText, tool, type ModelMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reasoningScript } from './fixtures/reasoning-script';
import { openAIQuotaExhaustedMessage } from '../../scripts/scripted-model-server/openai-error-body';
import { openAIResponsesProvider } from './providers-under-test';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { describeStreamTextConformance } from './stream-text-conformance';

describeStreamTextConformance(openAIResponsesProvider, {
  path: '/v1/responses',
  toolCallIdPrefix: 'call_',
  expectRateLimitBody(body, message) {
    expect(body).toEqual({ error: { message, type: 'rate_limit_exceeded', param: null, code: null } });
  },
  expectQuotaExhaustedBody(body) {
    expect(body).toEqual({
      error: {
        message: openAIQuotaExhaustedMessage,
        type: 'insufficient_quota',
        param: null,
        code: 'insufficient_quota',
      },
    });
  },
  expectRetryInfo(error) {
    expect(error.responseHeaders?.['retry-after']).toBe('2');
  },
  expectStreamError(error) {
    // response.failed after output began becomes an error part carrying the failure's message and code.
    expect(error).toMatchObject({
      message: 'The scripted model server broke off this reply.',
      code: 'server_error',
      isRetryable: true,
    });
  },
});

describe('OpenAI Responses: what the provider sends back', { timeout: 20_000 }, () => {
  let server: ScriptedModelServer;

  beforeAll(async () => {
    server = await startScriptedModelServer();
  });

  afterAll(async () => {
    await server.close();
  });

  it('refers to stored output items by id on the follow-up, which still counts as the assistant step', async () => {
    server.setScript(reasoningScript);
    const model = createOpenAI({ baseURL: `${server.origin}/v1`, apiKey: 'sk-test' }).responses('o4-mini');
    const tools = { getParameters: tool({ inputSchema: jsonSchema({ type: 'object' }) }) };
    const messages: ModelMessage[] = [{ role: 'user', content: 'Faster please.' }];
    const first = streamText({ model, messages, tools, maxRetries: 0 });
    await first.consumeStream();
    const [call] = await first.toolCalls;
    const followUp: ModelMessage[] = [
      ...messages,
      ...(await first.response).messages,
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: call?.toolCallId ?? '',
            toolName: 'getParameters',
            output: { type: 'json', value: { speed: 4 } },
          },
        ],
      },
    ];
    const second = streamText({ model, messages: followUp, tools, maxRetries: 0 });
    expect(await second.text).toBe('Speed is 12 m/s and vectors are on.');

    const request = server.requests.at(-1);
    expect(request?.headers['authorization']).toBe('Bearer sk-test');
    expect(request?.body).toMatchObject({
      model: 'o4-mini',
      stream: true,
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Faster please.' }] },
        { type: 'item_reference', id: 'rs_scripted_1_0' },
        { type: 'function_call', call_id: 'call_0_0_0', name: 'getParameters', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_0_0_0', output: '{"speed":4}' },
      ],
    });
  });
});
