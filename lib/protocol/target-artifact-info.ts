import { z } from 'zod';
import { targetGrantSchema } from './target-artifact-events';

/** What the catalog says of a model-authored target: where it was made, which version is current, what it may do. */
export const targetArtifactInfoSchema = z.object({
  sessionId: z.string().min(1).max(200),
  artifactId: z.string().min(1).max(200),
  version: z.number().int().positive(),
  versions: z.array(
    z.object({
      version: z.number().int().positive(),
      state: z.enum(['draft', 'ready', 'rejected', 'superseded']),
      restoredFrom: z.number().int().positive().optional(),
    }),
  ),
  /** What its manifest asks for, and what the user granted so far. */
  requested: z.array(targetGrantSchema),
  granted: z.array(targetGrantSchema),
});
export type TargetArtifactInfo = z.infer<typeof targetArtifactInfoSchema>;
