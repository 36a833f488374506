import type { TargetArtifactControl } from '../authored-targets/target-artifact-control';
import { withAuthoredTargets } from '../authored-targets/target-artifact-catalog';
import type { TargetCatalog } from '../protocol/target-catalog';
import type { TargetRegistry } from '../manifest/target-registry';
import type { JsonValue } from '../protocol/json-value';
import type { StageDriver } from './stage-driver';
import type { ToolOutput } from '../protocol/tool-output';
import { executeTool } from './tool-router';
import type { TargetValues } from './target-values';

export type AuthoredTargets = Pick<TargetArtifactControl, 'knownSessions' | 'entries' | 'baseManifest'>;

export interface TargetToolsDependencies {
  registry: Pick<TargetRegistry, 'catalog'>;
  values: Pick<TargetValues, 'saved'>;
  /** The runtime's authored targets: a getter, since the runtime is made after the tools it runs. */
  authoredTargets(): AuthoredTargets;
}

export interface TargetTools {
  /** The installed targets and the ones made in these conversations (by default every conversation loaded now). */
  catalog(sessionIds?: string[]): Promise<TargetCatalog>;
  /** Runs a target tool against a stage, over the catalog of these conversations. */
  run(toolName: string, input: JsonValue, on: StageDriver, sessionIds?: string[]): Promise<ToolOutput>;
}

export function targetTools(dependencies: TargetToolsDependencies): TargetTools {
  const { registry, values, authoredTargets } = dependencies;
  const catalog = async (sessionIds: string[] = authoredTargets().knownSessions()): Promise<TargetCatalog> =>
    withAuthoredTargets(await registry.catalog(), await authoredTargets().entries(sessionIds));
  return {
    catalog,
    run: async (toolName, input, on, sessionIds) =>
      executeTool(toolName, input, {
        catalog: await catalog(sessionIds),
        stage: on,
        savedValues: (id) => values.saved(id),
        previousManifest: async (entry) =>
          'artifact' in entry
            ? authoredTargets().baseManifest(entry.artifact.sessionId, entry.artifact.artifactId)
            : undefined,
      }),
  };
}
