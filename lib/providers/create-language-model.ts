import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { BrowserAIChatLanguageModel } from '@browser-ai/core';
import { guardOnDeviceStreams } from './guard-on-device-streams';
import type { LanguageModel } from 'ai';
import type { EndpointSettings } from '../settings/endpoint-settings';
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
  // The Prompt API has no native tool calls: @browser-ai/core describes the tools in the system prompt and parses
  // the model's fenced JSON calls back into AI SDK tool calls. Its class, not its provider: that also pulls in MediaPipe.
  if (settings.kind === 'chrome-on-device') {
    guardOnDeviceStreams(globalThis as Parameters<typeof guardOnDeviceStreams>[0]);
    return new BrowserAIChatLanguageModel('text');
  }
  const { fetch: fetchFunction, chatId } =
    typeof options === 'function' ? { fetch: options, chatId: undefined } : options;
  const baseURL = settings.baseUrl.replace(/\/+$/, '');
  const transport = fetchFunction ? { fetch: fetchFunction } : {};
  switch (settings.kind) {
    case 'openai': {
      const provider = createOpenAI({ baseURL, apiKey: settings.apiKey, ...transport });
      return settings.api === 'responses' ? provider.responses(settings.model) : provider.chat(settings.model);
    }
    case 'openai-compatible':
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL,
        ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
        includeUsage: true,
        ...transport,
      }).chatModel(settings.model);
    case 'anthropic':
      return createAnthropic({
        baseURL,
        apiKey: settings.apiKey,
        headers: { ...ANTHROPIC_BROWSER_HEADER },
        ...transport,
      })(settings.model);
    case 'google':
      return createGoogleGenerativeAI({ baseURL, apiKey: settings.apiKey, ...transport })(settings.model);
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
