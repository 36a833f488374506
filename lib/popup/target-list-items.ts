import type { CatalogEntry, TargetCatalog } from '../manifest/target-catalog';

export interface TargetListItem {
  id: string;
  title: string;
  description: string;
  active: boolean;
  /** For a target the user registered by URL: where it is served from. */
  origin?: string;
}

export function targetListItems(catalog: TargetCatalog, activeTargetId: string | null | undefined): TargetListItem[] {
  return catalog.targets.map((entry) => ({
    id: entry.manifest.id,
    title: entry.manifest.title,
    description: entry.manifest.description,
    active: entry.manifest.id === activeTargetId,
    ...('entryUrl' in entry ? { origin: new URL(entry.entryUrl).host } : {}),
  }));
}

export function findEntry(catalog: TargetCatalog, targetId: string | null | undefined): CatalogEntry | undefined {
  return targetId ? catalog.targets.find((entry) => entry.manifest.id === targetId) : undefined;
}
