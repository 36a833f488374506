/** A model's context window and the most it writes in one answer, in tokens. */
export interface ModelWindow {
  model: string;
  contextTokens: number;
  maxOutputTokens: number;
}

/**
 * When the shipped windows were last checked, against the providers' model pages. The maintained registries on npm
 * were read first: tokenlens' models.dev snapshot has no Claude 4.5 or Gemini 3, and ai-tokenizer's table needs AI SDK 5.
 */
export const KNOWN_WINDOWS_DATE = '2026-12-03';

/**
 * A few well-known models. A model name matches its entry or the longest entry it starts with, so dated
 * snapshots such as `claude-sonnet-4-5-20250929` find their family.
 */
export const KNOWN_MODEL_WINDOWS: readonly ModelWindow[] = [
  { model: 'gpt-5', contextTokens: 400_000, maxOutputTokens: 128_000 },
  { model: 'gpt-5-chat', contextTokens: 128_000, maxOutputTokens: 16_384 },
  { model: 'gpt-4.1', contextTokens: 1_047_576, maxOutputTokens: 32_768 },
  { model: 'gpt-4o', contextTokens: 128_000, maxOutputTokens: 16_384 },
  { model: 'gpt-4-turbo', contextTokens: 128_000, maxOutputTokens: 4_096 },
  { model: 'o3', contextTokens: 200_000, maxOutputTokens: 100_000 },
  { model: 'o4-mini', contextTokens: 200_000, maxOutputTokens: 100_000 },
  { model: 'gpt-oss', contextTokens: 131_072, maxOutputTokens: 32_768 },
  { model: 'claude-opus-4', contextTokens: 200_000, maxOutputTokens: 32_000 },
  { model: 'claude-opus-4-5', contextTokens: 200_000, maxOutputTokens: 64_000 },
  { model: 'claude-sonnet-4', contextTokens: 200_000, maxOutputTokens: 64_000 },
  { model: 'claude-haiku-4-5', contextTokens: 200_000, maxOutputTokens: 64_000 },
  { model: 'claude-3-7-sonnet', contextTokens: 200_000, maxOutputTokens: 64_000 },
  { model: 'claude-3-5', contextTokens: 200_000, maxOutputTokens: 8_192 },
  { model: 'gemini-2.5', contextTokens: 1_048_576, maxOutputTokens: 65_536 },
  { model: 'gemini-2.0-flash', contextTokens: 1_048_576, maxOutputTokens: 8_192 },
  { model: 'gemini-3', contextTokens: 1_048_576, maxOutputTokens: 65_536 },
  { model: 'llama3.1', contextTokens: 131_072, maxOutputTokens: 8_192 },
  { model: 'llama3.2', contextTokens: 131_072, maxOutputTokens: 8_192 },
  { model: 'qwen2.5', contextTokens: 32_768, maxOutputTokens: 8_192 },
  { model: 'qwen3', contextTokens: 40_960, maxOutputTokens: 8_192 },
  { model: 'mistral', contextTokens: 32_768, maxOutputTokens: 8_192 },
];

/** The window of a model: the entry with its exact name, else the longest entry its name starts with. */
export function knownWindowOf(model: string | undefined): ModelWindow | undefined {
  if (!model) return undefined;
  // OpenRouter names carry their vendor (`anthropic/claude-sonnet-4.5`) and dots where the vendor has dashes.
  const name = model
    .trim()
    .toLowerCase()
    .replace(/^[^/]*\//, '');
  const dashed = name.replace(/(\d)\.(\d)/g, '$1-$2');
  let best: ModelWindow | undefined;
  for (const entry of KNOWN_MODEL_WINDOWS) {
    if (entry.model === name || entry.model === dashed) return entry;
    const matches = name.startsWith(entry.model) || dashed.startsWith(entry.model);
    if (matches && entry.model.length > (best?.model.length ?? 0)) best = entry;
  }
  return best;
}
