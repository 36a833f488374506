import { streamText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { googleQuotaMessage } from '../../scripts/scripted-model-server/google-error-body';
import { geminiProvider } from './providers-under-test';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { describeStreamTextConformance } from './stream-text-conformance';

const createModel = geminiProvider.createModel;

const quotaFailure = (quotaId: string, quotaValue: string) => ({
  '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
  violations: [
    {
      quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests',
      quotaId,
      quotaDimensions: { location: 'global', model: 'scripted-model' },
      quotaValue,
    },
  ],
});

describeStreamTextConformance(geminiProvider, {
  path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent',
  toolCallIdPrefix: 'call_',
  expectRateLimitBody(body, message) {
    expect(body).toEqual({ error: { code: 429, message, status: 'RESOURCE_EXHAUSTED' } });
  },
  expectQuotaExhaustedBody(body) {
    expect(body).toEqual({
      error: {
        code: 429,
        message: googleQuotaMessage,
        status: 'RESOURCE_EXHAUSTED',
        details: [
          quotaFailure('GenerateRequestsPerDayPerProjectPerModel-FreeTier', '250'),
          {
            '@type': 'type.googleapis.com/google.rpc.Help',
            links: [
              {
                description: 'Learn more about Gemini API quotas',
                url: 'https://ai.google.dev/gemini-api/docs/rate-limits',
              },
            ],
          },
        ],
      },
    });
  },
  expectRetryInfo(error) {
    // Google sends the hint only in the body; the AI SDK does not read it, so its retries fall back to exponential backoff.
    expect(error.responseHeaders?.['retry-after']).toBeUndefined();
    expect(JSON.parse(error.responseBody ?? 'null')).toMatchObject({
      error: {
        code: 429,
        status: 'RESOURCE_EXHAUSTED',
        details: [
          quotaFailure('GenerateRequestsPerMinutePerProjectPerModel-FreeTier', '10'),
          { '@type': 'type.googleapis.com/google.rpc.Help' },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '2s' },
        ],
      },
    });
  },
  expectStreamError(error) {
    // A `data: {"error": …}` chunk becomes an APICallError whose status is the error's code.
    expect(error).toMatchObject({
      statusCode: 500,
      message: 'The scripted model server broke off this reply.',
      isRetryable: true,
    });
  },
});

describe.skipIf(createModel === undefined)(
  `Gemini: what the provider sends${createModel === undefined ? ' (skipped: @ai-sdk/google is not installed)' : ''}`,
  { timeout: 20_000 },
  () => {
    let server: ScriptedModelServer;

    beforeAll(async () => {
      server = await startScriptedModelServer();
    });

    afterAll(async () => {
      await server.close();
    });

    it('sends x-goog-api-key to `${origin}/v1beta/models/{model}:streamGenerateContent?alt=sse`, tool results as functionResponse parts', async () => {
      if (createModel === undefined) return;
      server.setScript({
        turns: [{ steps: [{ toolCalls: [{ name: 'getParameters', arguments: {} }] }, { text: 'Read them.' }] }],
      });
      const result = streamText({
        model: createModel(server.origin),
        system: 'You drive a particle field.',
        messages: [
          { role: 'user', content: 'Read the parameters.' },
          {
            role: 'assistant',
            content: [{ type: 'tool-call', toolCallId: 'any-id', toolName: 'getParameters', input: {} }],
          },
          {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: 'any-id',
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
      expect(request?.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
      expect(request?.headers['x-goog-api-key']).toBe('test-key');
      expect(request?.body).toMatchObject({
        systemInstruction: { parts: [{ text: 'You drive a particle field.' }] },
        contents: [
          { role: 'user', parts: [{ text: 'Read the parameters.' }] },
          { role: 'model', parts: [{ functionCall: { name: 'getParameters', args: {} } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'getParameters' } }] },
        ],
      });
    });
  },
);
