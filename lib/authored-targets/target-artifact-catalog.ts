import type { CatalogEntry, TargetCatalog } from '../protocol/target-catalog';
import type { TargetArtifactLoad } from '../protocol/target-artifact-wire';
import type { TargetArtifactContent } from './target-artifact-control';

/** The installed targets and, after them, the ready ones made in the given conversations (an installed id wins). */
export function withAuthoredTargets(catalog: TargetCatalog, authored: readonly CatalogEntry[]): TargetCatalog {
  const ids = new Set(catalog.targets.map((entry) => entry.manifest.id));
  return { ...catalog, targets: [...catalog.targets, ...authored.filter((entry) => !ids.has(entry.manifest.id))] };
}

export function targetArtifactLoad(content: TargetArtifactContent): TargetArtifactLoad {
  return {
    artifactId: content.artifactId,
    version: content.version,
    manifest: content.manifest,
    html: content.files.html,
    script: content.files.script,
    ...(content.files.css !== undefined ? { css: content.files.css } : {}),
    granted: content.granted,
  };
}
