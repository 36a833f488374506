import { z } from 'zod';
import { blobRefSchema } from './blob-ref';

/** What an authored target may ask for; each is granted by the user per artifact, never by default. */
export const TARGET_PERMISSIONS = ['network', 'clipboard', 'download'] as const;
export const targetPermissionSchema = z.enum(TARGET_PERMISSIONS);
export type TargetPermission = z.infer<typeof targetPermissionSchema>;

/** An http(s) or ws(s) origin, exactly as a CSP source and `new URL(...).origin` write it. */
export const networkOriginSchema = z
  .string()
  .max(300)
  .regex(/^(https?|wss?):\/\/[a-z0-9.-]+(:\d{1,5})?$/, 'must be an origin such as "https://api.example.org"');

/** One grant: a permission, and for `network` the one origin it opens. */
export const targetGrantSchema = z.object({
  permission: targetPermissionSchema,
  origin: networkOriginSchema.optional(),
});
export type TargetGrant = z.infer<typeof targetGrantSchema>;

/** The stored parts of one version of an html-app artifact: content lives in the blob store, the log has refs. */
export const targetArtifactPartsSchema = z.object({
  manifest: blobRefSchema,
  html: blobRefSchema,
  css: blobRefSchema.optional(),
  script: blobRefSchema,
});
export type TargetArtifactParts = z.infer<typeof targetArtifactPartsSchema>;

export const targetArtifactProblemSchema = z.object({
  code: z.string().max(100),
  /** A JSON Pointer into the tool's input, e.g. `/params/view/position/length`. */
  path: z.string().max(1000),
  message: z.string().max(2000),
});
export type TargetArtifactProblem = z.infer<typeof targetArtifactProblemSchema>;

/**
 * The html-app artifact (model-authored target) events, built on agent-event.ts's envelope: a version is
 * `created` (draft) → `validating` (live only) → `ready` | `rejected`; a newer ready version supersedes the
 * previous one. Grants and revocations are the user's, per artifact.
 */
export function targetArtifactEventSchemas<TEnvelope extends z.ZodRawShape>(envelope: TEnvelope, id: z.ZodString) {
  const event = <TType extends string, TShape extends z.ZodRawShape, TData extends z.ZodType>(
    type: TType,
    ids: TShape,
    data: TData,
  ) => z.object({ ...envelope, ...ids, type: z.literal(type), data });
  const version = z.number().int().positive();
  const artifactIds = { artifactId: id };
  return [
    event(
      'artifact/created',
      { artifactId: id, turnId: id.optional(), toolCallId: id.optional() },
      z.object({
        kind: z.literal('html-app'),
        version,
        /** The version this one was made from (an update or a restore); none for a first create. */
        baseVersion: version.optional(),
        /** Set when the user restored an older version: this version has that one's parts. */
        restoredFrom: version.optional(),
        state: z.literal('draft'),
        parts: targetArtifactPartsSchema,
      }),
    ),
    event('artifact/validating', artifactIds, z.object({ version, state: z.literal('validating') })),
    event(
      'artifact/ready',
      artifactIds,
      z.object({ version, state: z.literal('ready'), requested: z.array(targetGrantSchema).max(50) }),
    ),
    event(
      'artifact/rejected',
      artifactIds,
      z.object({ version, state: z.literal('rejected'), problems: z.array(targetArtifactProblemSchema).max(100) }),
    ),
    event('artifact/superseded', artifactIds, z.object({ version, state: z.literal('superseded'), by: version })),
    event('artifact/permission-granted', artifactIds, targetGrantSchema),
    event('artifact/permission-revoked', artifactIds, targetGrantSchema),
  ];
}

export const TARGET_ARTIFACT_EVENT_TYPES = [
  'artifact/created',
  'artifact/validating',
  'artifact/ready',
  'artifact/rejected',
  'artifact/superseded',
  'artifact/permission-granted',
  'artifact/permission-revoked',
] as const;
export type TargetArtifactEventType = (typeof TARGET_ARTIFACT_EVENT_TYPES)[number];
