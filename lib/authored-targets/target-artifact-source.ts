import { z } from 'zod';

export const TARGET_SOURCE_LIMITS = { htmlChars: 200_000, cssChars: 200_000, scriptChars: 400_000 } as const;

/** The parts of an authored target as the model writes them; `params` is the manifest's parameter schema. */
export const targetSourceSchema = z.object({
  title: z.string(),
  description: z.string(),
  params: z.unknown(),
  html: z.string().max(TARGET_SOURCE_LIMITS.htmlChars),
  css: z.string().max(TARGET_SOURCE_LIMITS.cssChars).optional(),
  script: z.string().min(1).max(TARGET_SOURCE_LIMITS.scriptChars),
  permissions: z.unknown().optional(),
});
export type TargetSource = z.infer<typeof targetSourceSchema>;

export const TARGET_TEXT_PARTS = ['html', 'css', 'script'] as const;
export type TargetTextPart = (typeof TARGET_TEXT_PARTS)[number];

export const targetEditSchema = z.object({
  part: z.enum(TARGET_TEXT_PARTS),
  find: z.string().min(1),
  replace: z.string(),
});
export type TargetEdit = z.infer<typeof targetEditSchema>;
