import { TOKEN_USAGE_FIELDS, type TokenUsage } from '../protocol/token-usage';

/** The part of the AI SDK's LanguageModelUsage this reads; v6 moved reasoning and cache reads into details. */
export interface SdkUsage {
  inputTokens?: number;
  outputTokens?: number;
  inputTokenDetails?: { cacheReadTokens?: number };
  outputTokenDetails?: { reasoningTokens?: number };
  reasoningTokens?: number;
  cachedInputTokens?: number;
}

/** Keeps only the figures the provider reported (finite whole numbers); undefined when it reported none. */
export function tokenUsageFromSdk(usage: SdkUsage | undefined): TokenUsage | undefined {
  if (!usage) return undefined;
  const figures: Record<(typeof TOKEN_USAGE_FIELDS)[number], unknown> = {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    reasoningTokens: usage.outputTokenDetails?.reasoningTokens ?? usage.reasoningTokens,
    cachedInputTokens: usage.inputTokenDetails?.cacheReadTokens ?? usage.cachedInputTokens,
  };
  const result: TokenUsage = {};
  for (const field of TOKEN_USAGE_FIELDS) {
    const figure = figures[field];
    if (typeof figure === 'number' && Number.isSafeInteger(figure) && figure >= 0) result[field] = figure;
  }
  return Object.keys(result).length ? result : undefined;
}
