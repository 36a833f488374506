import { z } from 'zod';
import { targetManifestSchema } from './target-manifest';
import { targetArtifactInfoSchema } from './target-artifact-info';

export const catalogEntrySchema = z.union([
  z.object({
    manifest: targetManifestSchema,
    /** Extension-relative path of a built-in target's entry page, e.g. `targets/particles/index.html`. */
    entryPath: z.string(),
  }),
  z.object({
    manifest: targetManifestSchema,
    /** Address of a target the user registered, e.g. their own dev server on localhost. */
    entryUrl: z.url({ protocol: /^https?$/ }),
  }),
  z.object({
    manifest: targetManifestSchema,
    /** A target the model made in a conversation: its files are blobs, the stage hosts them in the artifact host page. */
    artifact: targetArtifactInfoSchema,
  }),
]);
export type CatalogEntry = z.infer<typeof catalogEntrySchema>;
export type BuiltInCatalogEntry = Extract<CatalogEntry, { entryPath: string }>;

/** `defaultTargetId` is opened when a tool needs a target and none has been opened yet. */
export const targetCatalogSchema = z.object({
  targets: z.array(catalogEntrySchema),
  defaultTargetId: z.string().optional(),
});
export type TargetCatalog = z.infer<typeof targetCatalogSchema>;

export const TARGET_CATALOG_PATH = 'targets/catalog.json';
