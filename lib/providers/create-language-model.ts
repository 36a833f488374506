import type { LanguageModel } from 'ai';
import type { EndpointSettings } from '../settings/endpoint-settings';
import { lazyLanguageModel } from './lazy-language-model';
import { createUIMessageStreamModel } from './ui-message-stream-model';

export interface LanguageModelOptions {
  /** Replaces the global fetch, e.g. to replay recorded bytes in tests and benchmarks. */
  fetch?: typeof fetch;
  /** The `id` an AI SDK chat server receives: one per conversation. */
  chatId?: string;
}

/** Anthropic refuses calls from a browser page unless they say they mean it. */
export const ANTHROPIC_BROWSER_HEADER = { 'anthropic-dangerous-direct-browser-access': 'true' } as const;

/**
 * The one place that turns endpoint settings into an AI SDK model. The providers do the HTTP and SSE work;
 * their stream parts all reach StepStreamMapper. The key goes only into requests to `settings.baseUrl`; the on-device
 * kind sends nothing anywhere.
 */
export function createLanguageModel(
  settings: EndpointSettings,
  options: LanguageModelOptions | typeof fetch = {},
): LanguageModel {
  // Each provider package (and @browser-ai/core with MediaPipe) is its own chunk, imported on the model's first call.
  if (settings.kind === 'chrome-on-device')
    return lazyLanguageModel('browser-ai', 'text', async () =>
      (await import('./on-device-language-model')).createOnDeviceLanguageModel(),
    );
  const { fetch: fetchFunction, chatId } =
    typeof options === 'function' ? { fetch: options, chatId: undefined } : options;
  const baseURL = settings.baseUrl.replace(/\/+$/, '');
  const transport = fetchFunction ? { fetch: fetchFunction } : {};
  const { model } = settings;
  switch (settings.kind) {
    case 'openai':
      return lazyLanguageModel(`openai.${settings.api}`, model, async () => {
        const provider = (await import('@ai-sdk/openai')).createOpenAI({
          baseURL,
          apiKey: settings.apiKey,
          ...transport,
        });
        return settings.api === 'responses' ? provider.responses(model) : provider.chat(model);
      });
    case 'openai-compatible':
      return lazyLanguageModel('openai-compatible.chat', model, async () =>
        (await import('@ai-sdk/openai-compatible'))
          .createOpenAICompatible({
            name: 'openai-compatible',
            baseURL,
            ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
            includeUsage: true,
            ...transport,
          })
          .chatModel(model),
      );
    case 'anthropic':
      return lazyLanguageModel('anthropic.messages', model, async () =>
        (await import('@ai-sdk/anthropic')).createAnthropic({
          baseURL,
          apiKey: settings.apiKey,
          headers: { ...ANTHROPIC_BROWSER_HEADER },
          ...transport,
        })(model),
      );
    case 'google':
      return lazyLanguageModel('google.generative-ai', model, async () =>
        (await import('@ai-sdk/google')).createGoogleGenerativeAI({ baseURL, apiKey: settings.apiKey, ...transport })(
          model,
        ),
      );
    case 'ai-sdk-chat':
      return createUIMessageStreamModel({
        url: settings.baseUrl,
        model: settings.model,
        apiKey: settings.apiKey,
        continuation: settings.continuation,
        ...(chatId ? { chatId } : {}),
        ...transport,
      });
  }
}
