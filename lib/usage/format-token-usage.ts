import type { TokenUsage } from '../protocol/token-usage';

/**
 * "1,234 in · 56 out · 12 reasoning · 1,000 cached": tokens only, a figure the provider did not report left out.
 * Reasoning and cached figures are parts of output and input, so a 0 there says nothing and is left out too.
 */
export function formatTokenUsage(usage: TokenUsage | undefined, locale?: string): string {
  if (!usage) return '';
  const format = new Intl.NumberFormat(locale);
  const parts: string[] = [];
  if (usage.inputTokens !== undefined) parts.push(`${format.format(usage.inputTokens)} in`);
  if (usage.outputTokens !== undefined) parts.push(`${format.format(usage.outputTokens)} out`);
  if (usage.reasoningTokens) parts.push(`${format.format(usage.reasoningTokens)} reasoning`);
  if (usage.cachedInputTokens) parts.push(`${format.format(usage.cachedInputTokens)} cached`);
  return parts.join(' · ');
}
