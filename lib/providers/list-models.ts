import { safeParseJSON } from '@ai-sdk/provider-utils';
import { z } from 'zod';
import { isRemoteEndpoint, type EndpointSettings } from '../settings/endpoint-settings';
import { ANTHROPIC_BROWSER_HEADER } from './create-language-model';
import { endpointAdvice } from './loopback-url';
import { parseProviderErrorBody } from './provider-error-body';
import { errorText } from '../protocol/error-text';

export type ModelList =
  | { ok: true; models: string[] }
  | { ok: false; unsupported: true; message: string }
  | { ok: false; unsupported?: false; message: string; status?: number };

const idListSchema = z.object({ data: z.array(z.object({ id: z.string() })) });
const googleListSchema = z.object({
  models: z
    .array(z.object({ name: z.string(), supportedGenerationMethods: z.array(z.string()).optional() }))
    .default([]),
});

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

function modelIds(settings: EndpointSettings, body: unknown): string[] | undefined {
  if (settings.kind === 'google') {
    const parsed = googleListSchema.safeParse(body);
    if (!parsed.success) return undefined;
    const generating = parsed.data.models.filter(
      (model) => !model.supportedGenerationMethods || model.supportedGenerationMethods.includes('generateContent'),
    );
    return generating.map((model) => model.name.replace(/^models\//, ''));
  }
  const parsed = idListSchema.safeParse(body);
  return parsed.success ? parsed.data.data.map((model) => model.id) : undefined;
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
  const models = modelIds(settings, body.value);
  return models
    ? { ok: true, models: [...new Set(models)].sort() }
    : { ok: false, message: 'The model list has an unexpected shape.' };
}
