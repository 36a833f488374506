import { z } from 'zod';
import { budgetUnitSchema } from '../protocol/notify-events';
import { KNOWN_PRICES } from './known-prices';
import { modelPriceSchema } from './model-price';

/** A cap: tokens (input + output) or US dollars of estimated cost. */
export const budgetSchema = z.object({ unit: budgetUnitSchema, limit: z.number().positive().max(1e12) });
export type Budget = z.infer<typeof budgetSchema>;

export const usageSettingsSchema = z.object({
  prices: z.array(modelPriceSchema).max(500),
  budgets: z.object({ conversation: budgetSchema.optional(), day: budgetSchema.optional() }),
  /** Browser notifications when a turn waits for the user or ends while the panel is not visible. */
  browserNotifications: z.boolean().default(false),
});
export type UsageSettings = z.infer<typeof usageSettingsSchema>;

export const DEFAULT_USAGE_SETTINGS: UsageSettings = {
  prices: [...KNOWN_PRICES],
  budgets: {},
  browserNotifications: false,
};

export const USAGE_SETTINGS_KEY = 'usageSettings';

/** None stored is the default; a broken one reads as the default too (shipped prices, no budget) rather than failing every turn. */
export function parseStoredUsageSettings(stored: unknown): UsageSettings {
  const parsed = usageSettingsSchema.safeParse(stored ?? DEFAULT_USAGE_SETTINGS);
  return parsed.success ? parsed.data : DEFAULT_USAGE_SETTINGS;
}
