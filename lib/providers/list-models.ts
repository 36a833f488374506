import { safeParseJSON } from '@ai-sdk/provider-utils';
import { z } from 'zod';
import { isRemoteEndpoint, type EndpointSettings } from '../settings/endpoint-settings';
import { ANTHROPIC_BROWSER_HEADER } from './create-language-model';
import { endpointAdvice } from './loopback-url';
import { parseProviderErrorBody } from './provider-error-body';
import { errorText } from '../protocol/error-text';

export type ModelList =
  /** `contextWindows`: the models whose list entry says their context length (OpenRouter, LM Studio, Gemini). */
  | { ok: true; models: string[]; contextWindows?: Record<string, number> }
  | { ok: false; unsupported: true; message: string }
  | { ok: false; unsupported?: false; message: string; status?: number };

const tokenCount = z.number().int().positive().optional().catch(undefined);
const idListSchema = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      /** OpenRouter's name for it. */
      context_length: tokenCount,
      /** LM Studio's. */
      max_context_length: tokenCount,
      /** Anthropic's. */
      max_input_tokens: tokenCount,
    }),
  ),
});
const googleListSchema = z.object({
  models: z
    .array(
      z.object({
        name: z.string(),
        supportedGenerationMethods: z.array(z.string()).optional(),
        inputTokenLimit: tokenCount,
        outputTokenLimit: tokenCount,
      }),
    )
    .default([]),
});

interface ListedModel {
  id: string;
  contextWindow?: number;
}

/** The request that lists models, where the API has one. The key goes only to the endpoint's own address. */
function listRequest(settings: EndpointSettings): { url: string; headers: Record<string, string> } | undefined {
  if (!isRemoteEndpoint(settings)) return undefined;
  const base = settings.baseUrl.replace(/\/+$/, '');
  switch (settings.kind) {
    case 'openai':
    case 'openai-compatible':
      return { url: `${base}/models`, headers: settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {} };
    case 'anthropic':
      return {
        url: `${base}/models?limit=1000`,
        headers: { 'x-api-key': settings.apiKey, 'anthropic-version': '2023-06-01', ...ANTHROPIC_BROWSER_HEADER },
      };
    case 'google':
      return { url: `${base}/models?pageSize=1000`, headers: { 'x-goog-api-key': settings.apiKey } };
    case 'ai-sdk-chat':
      return undefined;
  }
}

function listedModels(settings: EndpointSettings, body: unknown): ListedModel[] | undefined {
  if (settings.kind === 'google') {
    const parsed = googleListSchema.safeParse(body);
    if (!parsed.success) return undefined;
    const generating = parsed.data.models.filter(
      (model) => !model.supportedGenerationMethods || model.supportedGenerationMethods.includes('generateContent'),
    );
    return generating.map((model) => ({
      id: model.name.replace(/^models\//, ''),
      ...(model.inputTokenLimit ? { contextWindow: model.inputTokenLimit + (model.outputTokenLimit ?? 0) } : {}),
    }));
  }
  const parsed = idListSchema.safeParse(body);
  if (!parsed.success) return undefined;
  return parsed.data.data.map((model) => {
    const contextWindow = model.context_length ?? model.max_context_length ?? model.max_input_tokens;
    return { id: model.id, ...(contextWindow ? { contextWindow } : {}) };
  });
}

function modelList(listed: ListedModel[]): ModelList {
  const windows = listed.filter((model) => model.contextWindow !== undefined);
  return {
    ok: true,
    models: [...new Set(listed.map((model) => model.id))].sort(),
    ...(windows.length
      ? { contextWindows: Object.fromEntries(windows.map((model) => [model.id, model.contextWindow!])) }
      : {}),
  };
}

/** Asks the endpoint which models it offers: OpenAI and compatible `/models`, Anthropic `/v1/models`, Gemini `/v1beta/models`. */
export async function listModels(
  settings: EndpointSettings,
  fetchFunction: typeof fetch = fetch,
  signal?: AbortSignal,
): Promise<ModelList> {
  const request = listRequest(settings);
  if (!request)
    return {
      ok: false,
      unsupported: true,
      message:
        settings.kind === 'chrome-on-device'
          ? "Chrome's on-device model is the only one: there is no list."
          : 'An AI SDK chat server has no model list: the server picks the model.',
    };
  let response: Response;
  try {
    response = await fetchFunction(request.url, { headers: request.headers, ...(signal ? { signal } : {}) });
  } catch (error) {
    const detail = errorText(error);
    return {
      ok: false,
      message: `Could not reach ${new URL(request.url).origin}: ${detail}.${endpointAdvice(undefined, request.url)}`,
    };
  }
  const text = await response.text();
  if (!response.ok) {
    const message = parseProviderErrorBody(text)?.message ?? (text.trim().slice(0, 300) || response.statusText);
    return {
      ok: false,
      status: response.status,
      message: `HTTP ${response.status}${message ? `: ${message}` : ''}${endpointAdvice(response.status, request.url)}`,
    };
  }
  const body = await safeParseJSON({ text });
  if (!body.success) return { ok: false, message: 'The model list is not JSON.' };
  const listed = listedModels(settings, body.value);
  return listed ? modelList(listed) : { ok: false, message: 'The model list has an unexpected shape.' };
}
