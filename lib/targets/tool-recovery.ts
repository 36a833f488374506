import type { JsonValue } from '../protocol/json-value';
import { createReplayStage, NOT_RECORDED, type RecordedStageResult } from './replay-stage';
import type { StageDriver } from './stage-driver';
import type { ToolOutput } from '../protocol/tool-output';
import type { ToolRecovery } from '../tool-family/tool-family';

export type RecordedCallResult = RecordedStageResult & { callKey: string };

/** What the stage tab said about its work when it last (re)connected. */
export interface StageRecord {
  /** Whether a stage tab is connected and has said hello; without one, nothing below is current. */
  greeted: boolean;
  /** When the stage page started. */
  startedAt: number;
  /** Every call the stage has received a command for, finished or not. */
  received: ReadonlySet<string>;
  /** What the stage did for recent calls, in order. */
  recent: readonly RecordedCallResult[];
}

export interface ToolRecoveryDependencies {
  /** Waits for the hello of a stage tab that is open but has not reconnected yet. */
  stageRecord(): Promise<StageRecord>;
  /** Runs a tool against the given stage, as a real call would. */
  runTool(toolName: string, input: JsonValue, stage: StageDriver): Promise<ToolOutput>;
}

export interface InterruptedCall {
  toolName: string;
  input: JsonValue;
  callKey: string;
  /** When the log recorded the call as started. */
  startedAt: number;
}

/**
 * A call provably never reached the stage when the stage tab was already running when the call started and has
 * no record of any command for it: it can be run now, for the first time.
 */
export function neverReached(record: StageRecord, call: Pick<InterruptedCall, 'callKey' | 'startedAt'>): boolean {
  return record.greeted && record.startedAt < call.startedAt && !record.received.has(call.callKey);
}

export function recordedResults(record: StageRecord, callKey: string): RecordedStageResult[] {
  return record.recent
    .filter((result) => result.callKey === callKey)
    .map(({ type, targetId, state }) => ({ type, targetId, state }));
}

/**
 * What a restarted runtime can learn about a call that started but has no result: it never reached the stage,
 * or its output is rebuilt by replaying what the stage recorded for it, or its outcome is unknown.
 */
export async function recoverToolCall(
  call: InterruptedCall,
  dependencies: ToolRecoveryDependencies,
): Promise<ToolRecovery> {
  const record = await dependencies.stageRecord();
  if (neverReached(record, call)) return { kind: 'never-reached' };
  const results = recordedResults(record, call.callKey);
  if (results.length === 0) return { kind: 'unknown' };
  const output = await dependencies.runTool(call.toolName, call.input, createReplayStage(results));
  return output.error === NOT_RECORDED ? { kind: 'unknown' } : { kind: 'recovered', output };
}
