import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { lazyLanguageModel } from './lazy-language-model';

describe('lazyLanguageModel', () => {
  it('loads its model on the first call only, and answers as that model', async () => {
    let loads = 0;
    const streamed = { stream: new ReadableStream() };
    const inner = {
      specificationVersion: 'v3',
      provider: 'inner',
      modelId: 'm',
      supportedUrls: { 'image/*': [/^https:/] },
      doGenerate: async () => {
        throw new Error('not used');
      },
      doStream: async () => streamed,
    } as unknown as LanguageModelV3;
    const model = lazyLanguageModel('openai.chat', 'm', async () => {
      loads += 1;
      return inner;
    });
    expect(model.provider).toBe('openai.chat');
    expect(model.modelId).toBe('m');
    expect(loads).toBe(0);
    const options = { prompt: [] } as unknown as LanguageModelV3CallOptions;
    expect(await model.doStream(options)).toBe(streamed);
    expect(await model.supportedUrls).toEqual({ 'image/*': [/^https:/] });
    await model.doStream(options);
    expect(loads).toBe(1);
  });
});
