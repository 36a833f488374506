import { createOpenAI } from '@ai-sdk/openai';
import { streamText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterRateLimitText } from './fixtures/retry-after-seconds-script';
import { retryAfterMsScript } from './fixtures/retry-after-ms-script';
import { openAIQuotaExhaustedMessage } from '../../scripts/scripted-model-server/openai-error-body';
import { openAIChatProvider } from './providers-under-test';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { describeStreamTextConformance } from './stream-text-conformance';

describeStreamTextConformance(openAIChatProvider, {
  path: '/v1/chat/completions',
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
    // A mid-stream `data: {"error": …}` chunk reaches streamText as the bare error object.
    expect(error).toEqual({
      message: 'The scripted model server broke off this reply.',
      type: 'server_error',
      param: null,
      code: null,
    });
  },
});

describe('OpenAI chat completions: what the provider sends and how it retries', { timeout: 20_000 }, () => {
  let server: ScriptedModelServer;

  beforeAll(async () => {
    server = await startScriptedModelServer();
  });

  afterAll(async () => {
    await server.close();
  });

  it('sends a Bearer key and stream_options to `${origin}/v1/chat/completions`', async () => {
    server.setScript({ turns: [{ steps: [{ text: 'ok' }] }] });
    const result = streamText({
      model: createOpenAI({ baseURL: `${server.origin}/v1`, apiKey: 'sk-test' }).chat('gpt-4.1-mini'),
      prompt: 'hi',
      maxRetries: 0,
    });
    expect(await result.text).toBe('ok');
    const request = server.requests.at(-1);
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers['authorization']).toBe('Bearer sk-test');
    expect(request?.headers['user-agent']).toMatch(/ai-sdk\/openai\//);
    expect(request?.body).toMatchObject({
      model: 'gpt-4.1-mini',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("waits out retry-after-ms with the AI SDK's own retry, then gets the reply", async () => {
    server.setScript(retryAfterMsScript);
    const startedAt = performance.now();
    const result = streamText({
      model: createOpenAI({ baseURL: `${server.origin}/v1`, apiKey: 'sk-test' }).chat('gpt-4.1-mini'),
      prompt: 'hi',
      maxRetries: 1,
    });
    expect(await result.text).toBe(afterRateLimitText);
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(1400);
    expect(server.requests.filter((request) => request.path === '/v1/chat/completions').length).toBeGreaterThanOrEqual(
      2,
    );
  });
});
