import { TOKEN_USAGE_FIELDS, type TokenUsage } from './token-usage';

/** Sums two usages figure by figure; a figure absent from both stays absent. */
export function addTokenUsage(total: TokenUsage | undefined, usage: TokenUsage | undefined): TokenUsage | undefined {
  if (!usage) return total;
  if (!total) return hasFigures(usage) ? { ...usage } : undefined;
  const sum: TokenUsage = { ...total };
  for (const field of TOKEN_USAGE_FIELDS) {
    const figure = usage[field];
    if (figure !== undefined) sum[field] = (sum[field] ?? 0) + figure;
  }
  return sum;
}

function hasFigures(usage: TokenUsage): boolean {
  return TOKEN_USAGE_FIELDS.some((field) => usage[field] !== undefined);
}
