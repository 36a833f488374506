import type { CatalogEntry, TargetCatalog } from '../protocol/target-catalog';
import type { TargetArtifactInfo } from '../protocol/target-artifact-info';

export interface TargetListItem {
  id: string;
  title: string;
  description: string;
  active: boolean;
  /** For a target the user registered by URL: where it is served from. */
  origin?: string;
  /** For a target the model made in a conversation: its versions and permissions. */
  authored?: TargetArtifactInfo;
}

export function targetListItems(catalog: TargetCatalog, activeTargetId: string | null | undefined): TargetListItem[] {
  return catalog.targets.map((entry) => ({
    id: entry.manifest.id,
    title: entry.manifest.title,
    description: entry.manifest.description,
    active: entry.manifest.id === activeTargetId,
    ...('entryUrl' in entry ? { origin: new URL(entry.entryUrl).host } : {}),
    ...('artifact' in entry ? { authored: entry.artifact } : {}),
  }));
}

export function findEntry(catalog: TargetCatalog, targetId: string | null | undefined): CatalogEntry | undefined {
  return targetId ? catalog.targets.find((entry) => entry.manifest.id === targetId) : undefined;
}
