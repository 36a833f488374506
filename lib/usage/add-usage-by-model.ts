import type { TokenUsage } from '../protocol/token-usage';
import { addTokenUsage } from '../protocol/add-token-usage';

/** Adds one step's usage under its model ('' when the step named none), so a price per model can apply. */
export function addUsageByModel(
  totals: Readonly<Record<string, TokenUsage>> | undefined,
  model: string | undefined,
  usage: TokenUsage | undefined,
): Record<string, TokenUsage> | undefined {
  const key = model ?? '';
  const sum = addTokenUsage(totals?.[key], usage);
  if (!sum) return totals ? { ...totals } : undefined;
  return { ...totals, [key]: sum };
}
