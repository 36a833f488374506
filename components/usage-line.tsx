import type { TokenUsage } from '@/lib/protocol/token-usage';
import { formatTokenUsage } from '@/lib/usage/format-token-usage';

export interface UsageLineProps {
  usage: TokenUsage | undefined;
  className: string;
  /** What the figures are the usage of, for screen readers and the tooltip. */
  label: string;
}

/** Tokens as the provider reported them; nothing at all when it reported none. */
export function UsageLine({ usage, className, label }: UsageLineProps) {
  const text = formatTokenUsage(usage);
  if (!text) return null;
  return (
    <span
      className={`usage-line ${className}`}
      title={label}
      aria-label={`${label}: ${text}`}
      data-input-tokens={usage?.inputTokens}
      data-output-tokens={usage?.outputTokens}
      data-reasoning-tokens={usage?.reasoningTokens}
      data-cached-input-tokens={usage?.cachedInputTokens}
    >
      {text}
    </span>
  );
}
