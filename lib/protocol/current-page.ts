import { z } from 'zod';

/** Where the asking panel runs, so the page tools of its session act in its window. */
export const currentPageRequestSchema = z.object({
  type: z.literal('page/current'),
  sessionId: z.string().min(1).max(200).optional(),
  windowId: z.number().int().optional(),
  /** Set when the panel runs in a tab of its own (not a side panel or sidebar). */
  panelTabId: z.number().int().optional(),
});

/** The page the tools act on (title and origin, whether the site is granted, its acting mode), or why there is none. */
export const currentPageSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    title: z.string(),
    origin: z.string(),
    url: z.string(),
    access: z.boolean(),
    mode: z.enum(['ask', 'allow']),
  }),
  z.object({ ok: z.literal(false), reason: z.string() }),
]);
export type CurrentPageView = z.infer<typeof currentPageSchema>;
