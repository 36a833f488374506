import { z } from 'zod';
import { targetManifestSchema } from './target-manifest';

export const catalogEntrySchema = z.object({
  manifest: targetManifestSchema,
  /** Extension-relative path of the target's entry page, e.g. `targets/particles/index.html`. */
  entryPath: z.string(),
});
export type CatalogEntry = z.infer<typeof catalogEntrySchema>;

export const targetCatalogSchema = z.object({ targets: z.array(catalogEntrySchema) });
export type TargetCatalog = z.infer<typeof targetCatalogSchema>;

export const TARGET_CATALOG_PATH = 'targets/catalog.json';
