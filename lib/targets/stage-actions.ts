import { targetArtifactLoad } from '../authored-targets/target-artifact-catalog';
import type { TargetArtifactControl } from '../authored-targets/target-artifact-control';
import type { RuntimeHandlerDependencies } from '../runtime/runtime-handlers';
import type { StageDriver } from './stage-driver';
import type { StageLink } from './stage-link';
import type { TargetTools } from './target-tools';
import type { TargetValues } from './target-values';

export interface StageActionsDependencies {
  /** The stage the user sees, not a model call's. */
  stage: StageDriver & Pick<StageLink, 'preview'>;
  targets: Pick<TargetTools, 'catalog' | 'run'>;
  /** The runtime's authored targets: a getter, since the runtime is made after the stage link. */
  authoredTargets(): Pick<TargetArtifactControl, 'load'>;
  /** The targets' saved values, which a target not open on the stage gets back when it is opened. */
  values: Pick<TargetValues, 'saved' | 'remember'>;
}

export type StageActions = Required<
  Pick<RuntimeHandlerDependencies, 'runManualTool' | 'openTargetVersion' | 'reloadIfActive' | 'restoreTargetValues'>
>;

/** What the user's own requests (the toolbar popup, a restored or granted version, a preview) do on the stage. */
export function stageActions(dependencies: StageActionsDependencies): StageActions {
  const { stage, targets, authoredTargets, values } = dependencies;
  return {
    runManualTool: (toolName, input) => targets.run(toolName, input, stage),
    openTargetVersion: async (sessionId, artifactId, version) => {
      const entry = (await targets.catalog([sessionId])).targets.find(
        (known) => 'artifact' in known && known.artifact.artifactId === artifactId,
      );
      if (!entry) throw new Error(`No target "${artifactId}" was made in this conversation.`);
      await stage.preview(entry, targetArtifactLoad(await authoredTargets().load(sessionId, artifactId, version)));
    },
    reloadIfActive: async (targetId) => {
      if ((await stage.activeTargetId()) === targetId) await targets.run('openTarget', { targetId }, stage);
    },
    restoreTargetValues: async (restored) => {
      const active = await stage.activeTargetId();
      for (const { targetId, values: restoredValues } of restored) {
        if (targetId === active) await stage.send(targetId, { type: 'apply', payload: restoredValues });
        else values.remember(targetId, { ...(await values.saved(targetId)), ...restoredValues });
      }
    },
  };
}
