/** About four characters a token for English and markup-like text; a figure for budgets, not a tokenizer. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
