import type { RemoteEndpointSettings } from '../../lib/settings/endpoint-settings';

export const endpointFormats = [
  'openai-chat',
  'openai-responses',
  'openai-compatible',
  'anthropic',
  'gemini',
  'ai-sdk-chat',
] as const;
export type EndpointFormat = (typeof endpointFormats)[number];

/**
 * Settings of every kind (and both OpenAI APIs) pointed at one origin that speaks them all, as the scripted
 * model server in tests does: the routes are the providers' own, under that origin.
 */
export function scriptedEndpointSettings(
  format: EndpointFormat,
  origin: string,
  apiKey = 'test-key',
): RemoteEndpointSettings {
  const common = { label: `Scripted ${format}`, model: 'scripted-model', apiKey, scripted: true };
  switch (format) {
    case 'openai-chat':
      return { kind: 'openai', api: 'chat', baseUrl: `${origin}/v1`, ...common };
    case 'openai-responses':
      return { kind: 'openai', api: 'responses', baseUrl: `${origin}/v1`, ...common };
    case 'openai-compatible':
      return { kind: 'openai-compatible', baseUrl: `${origin}/v1`, ...common };
    case 'anthropic':
      return { kind: 'anthropic', baseUrl: `${origin}/v1`, ...common };
    case 'gemini':
      return { kind: 'google', baseUrl: `${origin}/v1beta`, ...common };
    case 'ai-sdk-chat':
      return { kind: 'ai-sdk-chat', baseUrl: `${origin}/api/chat`, continuation: false, ...common };
  }
}
