import { z } from 'zod';

export const endpointSettingsSchema = z.object({
  kind: z.literal('openai-compatible'),
  label: z.string().max(100).default('OpenAI-compatible'),
  baseUrl: z.url({ protocol: /^https?$/ }),
  model: z.string().min(1).max(200),
  apiKey: z.string().max(500).default(''),
  /** Set for the bundled scripted demo server so the UI can say the replies are not from a real model. */
  scripted: z.boolean().default(false),
});
export type EndpointSettings = z.infer<typeof endpointSettingsSchema>;

export const ENDPOINT_STORAGE_KEY = 'endpoint';

export function parseEndpointSettings(value: unknown): EndpointSettings | undefined {
  const parsed = endpointSettingsSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
