import { z } from 'zod';

/**
 * The parts of the `notify/*` fact events: ids and data per kind. `agent-event.ts` builds the event schemas from
 * them. Each fact notification has a stable `notificationId` and a reference to the fact it tells of (a job, a
 * turn, a tool call, a site); reading one never changes what the runtime may do.
 */
const id = z.string().min(1).max(200);
const message = z.string().max(4000);

export const budgetKinds = ['conversation', 'day'] as const;
export const budgetUnits = ['tokens', 'money'] as const;
export const budgetKindSchema = z.enum(budgetKinds);
export type BudgetKind = (typeof budgetKinds)[number];
export const budgetUnitSchema = z.enum(budgetUnits);
export type BudgetUnit = (typeof budgetUnits)[number];

export const NOTIFY_PARTS = {
  jobFinished: {
    ids: { notificationId: id, jobId: id, turnId: id.optional() },
    data: z.object({ state: z.enum(['completed', 'failed', 'killed', 'orphaned']), message }),
  },
  budgetReached: {
    ids: { notificationId: id, turnId: id.optional() },
    data: z.object({
      budget: budgetKindSchema,
      unit: budgetUnitSchema,
      /** Tokens, or US dollars for money. */
      limit: z.number().nonnegative(),
      used: z.number().nonnegative(),
      message,
    }),
  },
  securityWarning: {
    ids: { notificationId: id, turnId: id.optional(), toolCallId: id.optional() },
    data: z.object({
      warning: z.enum(['blocked-request', 'injection-flagged']),
      targetId: z.string().max(200).optional(),
      url: z.string().max(2000).optional(),
      message,
    }),
  },
  accessRevoked: {
    ids: { notificationId: id },
    data: z.object({ origin: z.string().max(2000), message }),
  },
  /** The user put a notification away: presentation only, kept so it stays away after a reconnect. */
  dismissed: { ids: { notificationId: id }, data: z.object({}) },
} as const;

export const NOTIFY_FACT_TYPES = [
  'notify/job-finished',
  'notify/budget-reached',
  'notify/security-warning',
  'notify/access-revoked',
] as const;
export type NotifyFactType = (typeof NOTIFY_FACT_TYPES)[number];
