import { streamText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicProvider } from './providers-under-test';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { describeStreamTextConformance } from './stream-text-conformance';

const createModel = anthropicProvider.createModel;

describeStreamTextConformance(anthropicProvider, {
  path: '/v1/messages',
  toolCallIdPrefix: 'toolu_',
  expectRateLimitBody(body, message) {
    expect(body).toEqual({ type: 'error', error: { type: 'rate_limit_error', message } });
  },
  expectQuotaExhaustedBody(body) {
    expect(body).toEqual({
      type: 'error',
      error: {
        type: 'rate_limit_error',
        message:
          'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
      },
    });
  },
  expectRetryInfo(error) {
    expect(error.responseHeaders?.['retry-after']).toBe('2');
  },
  expectStreamError(error) {
    // An `event: error` after output began reaches streamText as the bare `error` member.
    expect(error).toEqual({ type: 'overloaded_error', message: 'The scripted model server broke off this reply.' });
  },
});

describe.skipIf(createModel === undefined)(
  `Anthropic messages: what the provider sends${createModel === undefined ? ' (skipped: @ai-sdk/anthropic is not installed)' : ''}`,
  { timeout: 20_000 },
  () => {
    let server: ScriptedModelServer;

    beforeAll(async () => {
      server = await startScriptedModelServer();
    });

    afterAll(async () => {
      await server.close();
    });

    it('sends x-api-key and anthropic-version to `${origin}/v1/messages`, tool results as tool_result blocks', async () => {
      if (createModel === undefined) return;
      server.setScript({
        turns: [{ steps: [{ toolCalls: [{ name: 'getParameters', arguments: {} }] }, { text: 'Read them.' }] }],
      });
      const model = createModel(server.origin);
      const result = streamText({
        model,
        messages: [
          { role: 'user', content: 'Read the parameters.' },
          {
            role: 'assistant',
            content: [{ type: 'tool-call', toolCallId: 'toolu_0_0_0', toolName: 'getParameters', input: {} }],
          },
          {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: 'toolu_0_0_0',
                toolName: 'getParameters',
                output: { type: 'json', value: { speed: 4 } },
              },
            ],
          },
        ],
        maxRetries: 0,
      });
      expect(await result.text).toBe('Read them.');
      const request = server.requests.at(-1);
      expect(request?.path).toBe('/v1/messages');
      expect(request?.headers['x-api-key']).toBe('test-key');
      expect(request?.headers['anthropic-version']).toBe('2023-06-01');
      expect(request?.body).toMatchObject({
        stream: true,
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Read the parameters.' }] },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_0_0_0', name: 'getParameters', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_0_0_0', content: '{"speed":4}' }] },
        ],
      });
    });
  },
);
