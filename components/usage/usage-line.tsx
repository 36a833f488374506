import { useContext } from 'react';
import type { TokenUsage } from '@/lib/protocol/token-usage';
import { estimateCostByModel, formatCost } from '@/lib/usage/estimate-cost';
import { formatTokenUsage } from '@/lib/usage/format-token-usage';
import { UsagePricesContext } from './usage-prices-context';

export interface UsageLineProps {
  usage: TokenUsage | undefined;
  /** The same usage per model, for the cost estimate; with no price for any of its models, only tokens show. */
  usageByModel?: Record<string, TokenUsage>;
  className: string;
  /** What the figures are the usage of, for screen readers and the tooltip. */
  label: string;
}

/** Tokens as the provider reported them, and an estimated cost where the models have a price; nothing when none was reported. */
export function UsageLine({ usage, usageByModel, className, label }: UsageLineProps) {
  const prices = useContext(UsagePricesContext);
  const text = formatTokenUsage(usage);
  if (!text) return null;
  const estimate = estimateCostByModel(usageByModel, prices);
  const cost = estimate
    ? `${formatCost(estimate.dollars)} estimated${estimate.unpriced.length ? ' (some models have no price)' : ''}`
    : '';
  return (
    <span
      className={`usage-line ${className}`}
      title={cost ? `${label}; the cost is an estimate from the price table in the settings` : label}
      aria-label={`${label}: ${text}${cost ? `, ${cost}` : ''}`}
      data-input-tokens={usage?.inputTokens}
      data-output-tokens={usage?.outputTokens}
      data-reasoning-tokens={usage?.reasoningTokens}
      data-cached-input-tokens={usage?.cachedInputTokens}
      data-estimated-cost={estimate?.dollars}
    >
      {text}
      {cost && <span className="usage-cost"> · {cost}</span>}
    </span>
  );
}
