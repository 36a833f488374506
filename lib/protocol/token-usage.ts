import { z } from 'zod';

const tokenCount = z.number().int().nonnegative().optional();

/** Tokens one model call used, as its provider reported them; a figure the provider did not report is absent, never 0. */
export const tokenUsageSchema = z.object({
  inputTokens: tokenCount,
  outputTokens: tokenCount,
  reasoningTokens: tokenCount,
  cachedInputTokens: tokenCount,
});

export type TokenUsage = z.infer<typeof tokenUsageSchema>;

export const TOKEN_USAGE_FIELDS = ['inputTokens', 'outputTokens', 'reasoningTokens', 'cachedInputTokens'] as const;
