import type { TokenUsage } from '../protocol/token-usage';
import { priceForModel, type ModelPrice } from './model-price';

/** US dollars for one usage at one price: cached input at its own rate, the rest of the input at the input rate. */
export function estimateCost(usage: TokenUsage, price: ModelPrice): number {
  const input = usage.inputTokens ?? 0;
  const cached = Math.min(usage.cachedInputTokens ?? 0, input);
  const output = usage.outputTokens ?? 0;
  const cachedRate = price.cachedInputPerMillion ?? price.inputPerMillion;
  return ((input - cached) * price.inputPerMillion + cached * cachedRate + output * price.outputPerMillion) / 1_000_000;
}

export interface CostEstimate {
  /** US dollars for the usage of the models that have a price. */
  dollars: number;
  /** Models (or '' for steps that named none) whose tokens have no price and are not in `dollars`. */
  unpriced: string[];
}

/** An estimate over usage kept per model; undefined when no model with usage has a price. */
export function estimateCostByModel(
  usageByModel: Readonly<Record<string, TokenUsage>> | undefined,
  prices: readonly ModelPrice[],
): CostEstimate | undefined {
  if (!usageByModel) return undefined;
  let dollars = 0;
  let priced = false;
  const unpriced: string[] = [];
  for (const [model, usage] of Object.entries(usageByModel)) {
    const price = priceForModel(prices, model);
    if (!price) {
      unpriced.push(model);
      continue;
    }
    priced = true;
    dollars += estimateCost(usage, price);
  }
  return priced ? { dollars, unpriced } : undefined;
}

/** "≈ $0.0123": an estimate, with more digits for small sums so a cheap turn does not read as $0.00. */
export function formatCost(dollars: number, locale?: string): string {
  const digits = dollars === 0 ? 2 : dollars < 0.01 ? 4 : dollars < 1 ? 3 : 2;
  const text = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(dollars);
  return `≈ ${text}`;
}
