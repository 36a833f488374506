import { z } from 'zod';

const perMillion = z.number().nonnegative().max(100_000);

/** What one model costs, in US dollars per million tokens; `asOf` is the date the figures were read. */
export const modelPriceSchema = z.object({
  model: z.string().trim().min(1).max(200),
  inputPerMillion: perMillion,
  outputPerMillion: perMillion,
  /** Cached input tokens; the input price applies when it is not set. */
  cachedInputPerMillion: perMillion.optional(),
  asOf: z.string().max(40).optional(),
});
export type ModelPrice = z.infer<typeof modelPriceSchema>;

/** The price of a model: the entry with its exact name, else the longest entry its name starts with. */
export function priceForModel(prices: readonly ModelPrice[], model: string | undefined): ModelPrice | undefined {
  if (!model) return undefined;
  const name = model.trim().toLowerCase();
  let best: ModelPrice | undefined;
  for (const price of prices) {
    const candidate = price.model.trim().toLowerCase();
    if (candidate === name) return price;
    if (name.startsWith(candidate) && candidate.length > (best?.model.length ?? 0)) best = price;
  }
  return best;
}
