import { z } from 'zod';
import { fetchResultSchema, hostPageMessageSchema } from './relayed-fetch-wire';
import { targetManifestSchema } from './target-manifest';
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

/** The stage's answer to a relayed fetch: the response as text, or why there is none. */
export const artifactFetchResultSchema = fetchResultSchema(ARTIFACT_STAGE_SOURCE);
export type ArtifactFetchResult = z.infer<typeof artifactFetchResultSchema>;

/** Host page → stage, by window: ready for its files, each CSP violation in the frame, and relayed fetches. */
export const artifactHostMessageSchema = hostPageMessageSchema(ARTIFACT_HOST_SOURCE);
export type ArtifactHostMessage = z.infer<typeof artifactHostMessageSchema>;
