import { z } from 'zod';

export const endpointKinds = [
  'openai',
  'openai-compatible',
  'anthropic',
  'google',
  'ai-sdk-chat',
  'chrome-on-device',
] as const;
export type EndpointKind = (typeof endpointKinds)[number];
/** Kinds reached over HTTP: every kind but the browser's own on-device model. */
export type RemoteEndpointKind = Exclude<EndpointKind, 'chrome-on-device'>;

/** Where each kind is reached when the user leaves the address alone. */
export const defaultBaseUrls: Record<RemoteEndpointKind, string> = {
  openai: 'https://api.openai.com/v1',
  'openai-compatible': 'http://localhost:11434/v1',
  anthropic: 'https://api.anthropic.com/v1',
  google: 'https://generativelanguage.googleapis.com/v1beta',
  'ai-sdk-chat': 'http://localhost:3000/api/chat',
};

export const endpointKindLabels: Record<EndpointKind, string> = {
  openai: 'OpenAI',
  'openai-compatible': 'OpenAI-compatible',
  anthropic: 'Anthropic',
  google: 'Google Gemini',
  'ai-sdk-chat': 'AI SDK chat server',
  'chrome-on-device': 'On this device (Chrome)',
};

const common = {
  label: z.string().trim().min(1).max(100),
  /** For 'ai-sdk-chat' the full URL of the chat route; for the others the API base the provider appends paths to. */
  baseUrl: z.url({ protocol: /^https?$/ }),
  model: z.string().trim().min(1).max(200),
  apiKey: z.string().trim().max(500).default(''),
  /** Set for the bundled scripted demo server so the UI can say the replies are not from a real model. */
  scripted: z.boolean().default(false),
  /** How long a model stream may send nothing before its attempt is stopped as stalled; DEFAULT_STREAM_IDLE_TIMEOUT_SECONDS when unset. */
  streamIdleTimeoutSeconds: z.number().positive().max(3600).optional(),
  /** The model's context window in tokens, as the user or the endpoint's model list says; the known-model table when unset. */
  contextWindowTokens: z.number().int().min(1_024).max(100_000_000).optional(),
  /** Tokens kept free for the answer; an eighth of the window (at most the model's output limit) when unset. */
  outputReserveTokens: z.number().int().min(256).max(10_000_000).optional(),
};

export const DEFAULT_STREAM_IDLE_TIMEOUT_SECONDS = 60;

const withDefaultLabel = (kind: RemoteEndpointKind) => ({
  ...common,
  label: common.label.default(endpointKindLabels[kind]),
});

export const endpointSettingsSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('openai'),
    ...withDefaultLabel('openai'),
    baseUrl: common.baseUrl.default(defaultBaseUrls.openai),
    api: z.enum(['chat', 'responses']).default('chat'),
  }),
  z.object({ kind: z.literal('openai-compatible'), ...withDefaultLabel('openai-compatible') }),
  z.object({
    kind: z.literal('anthropic'),
    ...withDefaultLabel('anthropic'),
    baseUrl: common.baseUrl.default(defaultBaseUrls.anthropic),
  }),
  z.object({
    kind: z.literal('google'),
    ...withDefaultLabel('google'),
    baseUrl: common.baseUrl.default(defaultBaseUrls.google),
  }),
  z.object({
    kind: z.literal('ai-sdk-chat'),
    ...withDefaultLabel('ai-sdk-chat'),
    /** Servers that only continue after a user turn get an invisible `Continue.` message with metadata { continuation: true }. */
    continuation: z.boolean().default(false),
  }),
  /** Chrome's built-in model behind the Prompt API (`LanguageModel`): no address, no key, nothing leaves the machine. */
  z.object({
    kind: z.literal('chrome-on-device'),
    label: common.label.default(endpointKindLabels['chrome-on-device']),
    scripted: common.scripted,
    streamIdleTimeoutSeconds: common.streamIdleTimeoutSeconds,
    contextWindowTokens: common.contextWindowTokens,
    outputReserveTokens: common.outputReserveTokens,
  }),
]);

/** How to reach one model endpoint; what the agent loop needs to build its model. */
export type EndpointSettings = z.infer<typeof endpointSettingsSchema>;
export type EndpointSettingsInput = z.input<typeof endpointSettingsSchema>;
export type RemoteEndpointSettings = Exclude<EndpointSettings, { kind: 'chrome-on-device' }>;

/** What the panel and the profile list show of an endpoint: its model and where it runs. */
export function endpointModelName(settings: EndpointSettings): string {
  return isRemoteEndpoint(settings) ? settings.model : 'Chrome on-device model';
}

export function endpointAddress(settings: EndpointSettings): string | undefined {
  return isRemoteEndpoint(settings) ? settings.baseUrl : undefined;
}

export function isRemoteEndpoint(settings: EndpointSettings): settings is RemoteEndpointSettings {
  return settings.kind !== 'chrome-on-device';
}

/** The storage key of the single endpoint of earlier versions; `npm start` and older test harnesses still write it. */
export const ENDPOINT_STORAGE_KEY = 'endpoint';

export function parseEndpointSettings(value: unknown): EndpointSettings | undefined {
  const parsed = endpointSettingsSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
