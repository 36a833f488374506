import { z } from 'zod';
import { describeManifestError, targetManifestSchema } from '../protocol/target-manifest';
import type { CatalogEntry, TargetCatalog } from '../protocol/target-catalog';

export const userTargetSchema = z.object({ manifest: targetManifestSchema, entryUrl: z.url({ protocol: /^https?$/ }) });
export type UserTarget = z.infer<typeof userTargetSchema>;
export const userTargetListSchema = z.array(userTargetSchema);

export type Registration = { ok: true; target: UserTarget } | { ok: false; error: string };

/** Checks a target a user registers by URL: a valid manifest, an id no built-in target uses, an http(s) page. */
export function checkRegistration(entryUrl: string, manifest: unknown, builtIn: TargetCatalog): Registration {
  const parsed = targetManifestSchema.safeParse(manifest);
  if (!parsed.success)
    return { ok: false, error: describeManifestError(new URL('manifest.json', entryUrl).href, parsed.error) };
  if (builtIn.targets.some((entry) => entry.manifest.id === parsed.data.id))
    return { ok: false, error: `A built-in target already uses the id "${parsed.data.id}".` };
  return { ok: true, target: { manifest: parsed.data, entryUrl } };
}

export function mergeCatalog(builtIn: TargetCatalog, userTargets: readonly UserTarget[]): TargetCatalog {
  const entries: CatalogEntry[] = [
    ...builtIn.targets,
    ...userTargets.filter((target) => !builtIn.targets.some((entry) => entry.manifest.id === target.manifest.id)),
  ];
  return { ...builtIn, targets: entries };
}
