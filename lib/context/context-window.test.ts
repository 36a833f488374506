import { describe, expect, it } from 'vitest';
import { parseEndpointSettings, type EndpointSettings } from '../settings/endpoint-settings';
import { contextWindowOf, DEFAULT_WINDOW_TOKENS, promptLimitOf } from './context-window';
import { knownWindowOf } from './known-model-windows';

function settings(input: Record<string, unknown>): EndpointSettings {
  const parsed = parseEndpointSettings(input);
  if (!parsed) throw new Error('invalid settings');
  return parsed;
}

describe('knownWindowOf', () => {
  it('finds a dated snapshot by its family, an OpenRouter name by its vendor-less name, and nothing for a stranger', () => {
    expect(knownWindowOf('claude-sonnet-4-5-20250929')).toMatchObject({
      model: 'claude-sonnet-4',
      contextTokens: 200_000,
    });
    expect(knownWindowOf('anthropic/claude-opus-4.5')).toMatchObject({
      model: 'claude-opus-4-5',
      maxOutputTokens: 64_000,
    });
    expect(knownWindowOf('gpt-5-chat-latest')).toMatchObject({ model: 'gpt-5-chat' });
    expect(knownWindowOf('gpt-4.1-mini')).toMatchObject({ model: 'gpt-4.1' });
    expect(knownWindowOf('llama3.1:8b')).toMatchObject({ model: 'llama3.1', contextTokens: 131_072 });
    expect(knownWindowOf('my-own-model')).toBeUndefined();
    expect(knownWindowOf(undefined)).toBeUndefined();
  });
});

describe('contextWindowOf', () => {
  it('takes the profile’s own figures first', () => {
    const window = contextWindowOf(
      settings({ kind: 'openai', model: 'gpt-4.1', contextWindowTokens: 32_768, outputReserveTokens: 2_000 }),
    );
    expect(window).toEqual({ windowTokens: 32_768, reserveTokens: 2_000, source: 'profile' });
    expect(promptLimitOf(window)).toBe(30_768);
  });

  it('then the known-model table, with a reserve of an eighth of the window capped by the model’s output limit', () => {
    expect(contextWindowOf(settings({ kind: 'anthropic', model: 'claude-sonnet-4-5' }))).toEqual({
      windowTokens: 200_000,
      reserveTokens: 25_000,
      source: 'known-model',
    });
    expect(contextWindowOf(settings({ kind: 'openai', model: 'gpt-4-turbo' }))).toMatchObject({ reserveTokens: 4_096 });
  });

  it('else a guess it names as such; the on-device model has its own small one', () => {
    const local = contextWindowOf(
      settings({ kind: 'openai-compatible', baseUrl: 'http://localhost:1234/v1', model: 'my-own-model' }),
    );
    expect(local).toEqual({ windowTokens: DEFAULT_WINDOW_TOKENS, reserveTokens: 4_096, source: 'default' });
    expect(contextWindowOf(settings({ kind: 'chrome-on-device' }))).toMatchObject({ windowTokens: 6_144 });
  });

  it('never lets the reserve eat the whole window', () => {
    const window = contextWindowOf(
      settings({ kind: 'openai', model: 'x', contextWindowTokens: 2_000, outputReserveTokens: 5_000 }),
    );
    expect(promptLimitOf(window)).toBe(256);
  });
});
