import type { JsonObject } from '../protocol/json-value';
import type { StageActionType } from '../protocol/target-wire';
import type { StageDriver } from './stage-driver';

export interface RecordedStageResult {
  type: StageActionType;
  targetId: string;
  state: JsonObject;
}

/**
 * A stage that answers from what the real stage recorded for one tool call, in order, and never
 * touches a target. Running a tool against it rebuilds the output the call produced before the
 * runtime restarted; if any answer is missing it throws, and the outcome stays unknown.
 */
export const NOT_RECORDED = 'The stage has no record of this step.';

export function createReplayStage(results: readonly RecordedStageResult[]): StageDriver {
  const remaining = [...results];
  const take = (type: RecordedStageResult['type'], targetId: string): JsonObject => {
    const next = remaining.shift();
    if (!next || next.type !== type || next.targetId !== targetId) throw new Error(NOT_RECORDED);
    return next.state;
  };
  return {
    open: async (entry) => take('open', entry.manifest.id),
    send: async (targetId, command) => take(command.type, targetId),
    activeTargetId: async () => (results[0] && results[0].type !== 'open' ? results[0].targetId : undefined),
  };
}
