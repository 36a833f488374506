import { describe, expect, it } from 'vitest';
import { parseEndpointSettings, type EndpointSettings } from '../settings/endpoint-settings';
import { listModels } from './list-models';

function settings(input: Record<string, unknown>): EndpointSettings {
  return parseEndpointSettings(input)!;
}

const answering = (body: unknown) => (async () => new Response(JSON.stringify(body))) as unknown as typeof fetch;

describe('listModels context windows', () => {
  it('reads OpenRouter’s context_length and LM Studio’s max_context_length, and leaves out models that say none', async () => {
    const list = await listModels(
      settings({ kind: 'openai-compatible', baseUrl: 'https://openrouter.ai/api/v1', model: 'x' }),
      answering({
        data: [
          { id: 'anthropic/claude-sonnet-4.5', context_length: 1_000_000 },
          { id: 'qwen2.5-7b-instruct', max_context_length: 32_768 },
          { id: 'plain' },
          { id: 'odd', context_length: 'lots' },
        ],
      }),
    );
    expect(list).toEqual({
      ok: true,
      models: ['anthropic/claude-sonnet-4.5', 'odd', 'plain', 'qwen2.5-7b-instruct'],
      contextWindows: { 'anthropic/claude-sonnet-4.5': 1_000_000, 'qwen2.5-7b-instruct': 32_768 },
    });
  });

  it('adds Gemini’s input and output token limits', async () => {
    const list = await listModels(
      settings({ kind: 'google', model: 'gemini-2.5-flash', apiKey: 'k' }),
      answering({
        models: [{ name: 'models/gemini-2.5-flash', inputTokenLimit: 1_048_576, outputTokenLimit: 65_536 }],
      }),
    );
    expect(list).toEqual({
      ok: true,
      models: ['gemini-2.5-flash'],
      contextWindows: { 'gemini-2.5-flash': 1_114_112 },
    });
  });

  it('says nothing of windows when no entry has one', async () => {
    const list = await listModels(settings({ kind: 'openai', model: 'gpt-4.1' }), answering({ data: [{ id: 'a' }] }));
    expect(list).toEqual({ ok: true, models: ['a'] });
  });
});
