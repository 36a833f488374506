import { targetArtifactLoad } from '../authored-targets/target-artifact-catalog';
import type { TargetArtifactControl } from '../authored-targets/target-artifact-control';
import type { RuntimeHandlerDependencies } from '../runtime/runtime-handlers';
import type { RewindStage } from '../runtime/rewind-effects';
import { errorText } from '../protocol/error-text';
import type { StageDriver } from './stage-driver';
import type { StageLink } from './stage-link';
import type { TargetTools } from './target-tools';
import type { TargetValues } from './target-values';
import { reportedValues } from './reported-values';
import type { ToolbarEdits } from './toolbar-edits';

export interface StageActionsDependencies {
  /** The stage the user sees, not a model call's. */
  stage: StageDriver & Pick<StageLink, 'preview' | 'isPreview'>;
  targets: Pick<TargetTools, 'catalog' | 'run'>;
  /** The runtime's authored targets: a getter, since the runtime is made after the stage link. */
  authoredTargets(): Pick<TargetArtifactControl, 'load'>;
  /** The targets' saved values, which a target not open on the stage gets back when it is opened. */
  values: Pick<TargetValues, 'saved' | 'remember' | 'flush'>;
  /** Where the toolbar's changes are kept for rewinds; none kept without it. */
  toolbarEdits?: Pick<ToolbarEdits, 'record'>;
}

export type StageActions = Required<
  Pick<RuntimeHandlerDependencies, 'runManualTool' | 'openTargetVersion' | 'reloadIfActive'>
> & {
  /** What a rewind does on the stage (the runtime's RewindStage). */
  rewindStage: RewindStage;
};

/** What the user's own requests (the toolbar popup, a restored or granted version, a preview, a rewind) do on the stage. */
export function stageActions(dependencies: StageActionsDependencies): StageActions {
  const { stage, targets, authoredTargets, values, toolbarEdits } = dependencies;
  // A rewind's reload must have happened before the rewind is recorded as completed: a refusal is an error. Its
  // conversation is named, since a restarted worker knows no conversation's targets until one is asked for.
  const reloadIfActive = async (sessionId: string, targetId: string): Promise<boolean> => {
    if ((await stage.activeTargetId()) !== targetId) return false;
    const output = await targets.run('openTarget', { targetId }, stage, [sessionId]);
    if (output.ok === false) throw new Error(`Could not open "${targetId}" again: ${errorText(output.error)}`);
    return true;
  };
  return {
    // A change the toolbar made is kept with its time before the toolbar hears of it, for a rewind to count.
    runManualTool: async (toolName, input) => {
      const output = await targets.run(toolName, input, stage);
      const changed = output.ok && toolName !== 'getParameters' ? reportedValues(toolName, output) : undefined;
      if (changed && typeof output.targetId === 'string' && Object.keys(changed).length > 0)
        await toolbarEdits?.record(output.targetId, changed);
      return output;
    },
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
    rewindStage: {
      reloadIfActive,
      // Applied to the target the stage shows (not to an older version shown as a preview, whose values are not the
      // target's), saved over the saved values of any other; written before the rewind is recorded as completed.
      restoreTargetValues: async (restored) => {
        const active = await stage.activeTargetId();
        const live = active !== undefined && !stage.isPreview(active) ? active : undefined;
        const applied: string[] = [];
        const saved: string[] = [];
        for (const { targetId, values: restoredValues } of restored) {
          if (targetId === live) {
            await stage.send(targetId, { type: 'apply', payload: restoredValues });
            applied.push(targetId);
          } else {
            values.remember(targetId, { ...(await values.saved(targetId)), ...restoredValues });
            saved.push(targetId);
          }
        }
        await values.flush();
        return { applied, saved };
      },
    },
  };
}
