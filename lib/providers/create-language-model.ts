import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import type { EndpointSettings } from '../settings/endpoint-settings';

export function createLanguageModel(settings: EndpointSettings, fetchFunction?: typeof fetch): LanguageModel {
  const provider = createOpenAICompatible({
    name: 'openai-compatible',
    baseURL: settings.baseUrl.replace(/\/+$/, ''),
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
    includeUsage: true,
    ...(fetchFunction ? { fetch: fetchFunction } : {}),
  });
  return provider.chatModel(settings.model);
}
