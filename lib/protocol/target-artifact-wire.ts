import { z } from 'zod';
import { targetManifestSchema } from './target-manifest';
import { targetGrantSchema } from './target-artifact-events';

export const ARTIFACT_HOST_SOURCE = 'splitbrain:artifact-host';
export const ARTIFACT_STAGE_SOURCE = 'splitbrain:artifact-stage';

/** Bytes of text a relayed request or response may carry. */
export const RELAYED_BODY_LIMIT = 1_000_000;

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
export const artifactFetchResultSchema = z.object({
  source: z.literal(ARTIFACT_STAGE_SOURCE),
  type: z.literal('fetch-result'),
  id: z.string().min(1).max(100),
  response: z
    .object({
      status: z.number().int(),
      statusText: z.string().max(200),
      contentType: z.string().max(200),
      body: z.string().max(RELAYED_BODY_LIMIT),
    })
    .optional(),
  error: z.string().max(2000).optional(),
});
export type ArtifactFetchResult = z.infer<typeof artifactFetchResultSchema>;

/** Host page → stage, by window: ready for its files, each CSP violation in the frame, and relayed fetches. */
export const artifactHostMessageSchema = z.discriminatedUnion('type', [
  z.object({ source: z.literal(ARTIFACT_HOST_SOURCE), type: z.literal('host-ready') }),
  z.object({
    source: z.literal(ARTIFACT_HOST_SOURCE),
    type: z.literal('csp-violation'),
    directive: z.string().max(200),
    blockedUrl: z.string().max(2000),
  }),
  /** A fetch to an origin the user granted: the stage checks the origin again and makes the request. */
  z.object({
    source: z.literal(ARTIFACT_HOST_SOURCE),
    type: z.literal('fetch'),
    id: z.string().min(1).max(100),
    url: z.string().max(4000),
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']),
    contentType: z.string().max(200).optional(),
    body: z.string().max(RELAYED_BODY_LIMIT).optional(),
  }),
]);
export type ArtifactHostMessage = z.infer<typeof artifactHostMessageSchema>;
