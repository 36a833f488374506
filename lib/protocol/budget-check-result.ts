import { z } from 'zod';
import { budgetKindSchema, budgetUnitSchema } from './notify-events';

const spendSchema = z.object({ tokens: z.number(), dollars: z.number() });

/** The runtime's answer to `budget/check`. */
export const budgetCheckResultSchema = z.discriminatedUnion('reached', [
  z.object({ reached: z.literal(false), conversation: spendSchema, day: spendSchema }),
  z.object({
    reached: z.literal(true),
    conversation: spendSchema,
    day: spendSchema,
    budget: budgetKindSchema,
    unit: budgetUnitSchema,
    limit: z.number(),
    used: z.number(),
    message: z.string(),
    notificationId: z.string().optional(),
  }),
]);
