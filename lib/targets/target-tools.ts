import type { TargetArtifactControl } from '../authored-targets/target-artifact-control';
import { withAuthoredTargets } from '../authored-targets/target-artifact-catalog';
import type { TargetCatalog } from '../protocol/target-catalog';
import type { TargetRegistry } from '../manifest/target-registry';
import type { JsonValue } from '../protocol/json-value';
import type { StageDriver } from './stage-driver';
import type { ToolOutput } from '../protocol/tool-output';
import { failure, type TargetToolContext } from './target-tool-actions';
import { runTargetTool, targetToolFamily } from './target-tool-family';
import { toolNamed, unknownTool } from '../tools/tool-registry';
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
  /** What a target tool acts through: the catalog of these conversations over a stage. */
  context(on: StageDriver, sessionIds?: string[]): Promise<TargetToolContext>;
  /** Runs a target tool by its name against a stage, over the catalog of these conversations. */
  run(toolName: string, input: JsonValue, on: StageDriver, sessionIds?: string[]): Promise<ToolOutput>;
}

/** Runs a target tool by its name over a context; a name of another family or of none is refused. */
export function executeTool(toolName: string, input: unknown, context: TargetToolContext): Promise<ToolOutput> {
  const tool = targetToolFamily.find((candidate) => candidate.name === toolName);
  if (tool) return runTargetTool(tool, input, context);
  return Promise.resolve(
    toolNamed(toolName) ? failure(`${toolName} does not run on a target.`) : unknownTool(toolName),
  );
}

export function targetTools(dependencies: TargetToolsDependencies): TargetTools {
  const { registry, values, authoredTargets } = dependencies;
  const catalog = async (sessionIds: string[] = authoredTargets().knownSessions()): Promise<TargetCatalog> =>
    withAuthoredTargets(await registry.catalog(), await authoredTargets().entries(sessionIds));
  const context = async (on: StageDriver, sessionIds?: string[]): Promise<TargetToolContext> => ({
    catalog: await catalog(sessionIds),
    stage: on,
    savedValues: (id) => values.saved(id),
    previousManifest: async (entry) =>
      'artifact' in entry
        ? authoredTargets().baseManifest(entry.artifact.sessionId, entry.artifact.artifactId)
        : undefined,
  });
  return {
    catalog,
    context,
    run: async (toolName, input, on, sessionIds) => executeTool(toolName, input, await context(on, sessionIds)),
  };
}
