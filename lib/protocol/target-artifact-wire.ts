import { z } from 'zod';
import { targetManifestSchema } from '../manifest/target-manifest';
import { targetGrantSchema } from './target-artifact-events';

export const ARTIFACT_HOST_SOURCE = 'splitbrain:artifact-host';
export const ARTIFACT_STAGE_SOURCE = 'splitbrain:artifact-stage';

/** One version of an authored target as the stage hands it to the host page. */
export const targetArtifactLoadSchema = z.object({
  artifactId: z.string().min(1).max(200),
  version: z.number().int().positive(),
  manifest: targetManifestSchema,
  html: z.string().max(200_000),
  css: z.string().max(200_000).optional(),
  script: z.string().max(400_000),
  granted: z.array(targetGrantSchema).max(50),
});
export type TargetArtifactLoad = z.infer<typeof targetArtifactLoadSchema>;

/** Stage → host page, by window, once, after the host said `host-ready`. */
export const artifactStageMessageSchema = z.object({
  source: z.literal(ARTIFACT_STAGE_SOURCE),
  type: z.literal('load'),
  artifact: targetArtifactLoadSchema,
});
export type ArtifactStageMessage = z.infer<typeof artifactStageMessageSchema>;

/** Host page → stage, by window: ready for its files, and each CSP violation in the frame. */
export const artifactHostMessageSchema = z.discriminatedUnion('type', [
  z.object({ source: z.literal(ARTIFACT_HOST_SOURCE), type: z.literal('host-ready') }),
  z.object({
    source: z.literal(ARTIFACT_HOST_SOURCE),
    type: z.literal('csp-violation'),
    directive: z.string().max(200),
    blockedUrl: z.string().max(2000),
  }),
]);
export type ArtifactHostMessage = z.infer<typeof artifactHostMessageSchema>;
