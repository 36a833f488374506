import type { AgentEventOf } from '../protocol/agent-event';
import { addTokenUsage } from '../protocol/add-token-usage';
import { addUsageByModel } from '../usage/add-usage-by-model';
import type { EventAppliers } from './event-appliers';
import { addCalibrationStep } from './prompt-calibration';
import { isTurnOpen, placeDurableEntry, updateTurn } from './turn-entries';
import type { WorkingCopy } from './working-copy';

/** Durable events apply once each, in seq order, so adding here equals a sum over the log. */
function addStepUsage(copy: WorkingCopy, event: AgentEventOf<'step/completed'>): void {
  const { usage, model, promptEstimate } = event.data;
  if (usage?.inputTokens !== undefined)
    copy.state.lastPrompt = { model: model ?? '', tokens: usage.inputTokens, reported: true };
  else if (promptEstimate !== undefined)
    copy.state.lastPrompt = { model: model ?? '', tokens: promptEstimate, reported: false };
  if (!usage) return;
  addCalibration(copy, model ?? '', event.data.promptEstimate, usage.inputTokens);
  updateTurn(copy, event.turnId, (turn) => ({
    usage: addTokenUsage(turn.usage, usage),
    usageByModel: addUsageByModel(turn.usageByModel, model, usage),
  }));
  copy.state.usage = addTokenUsage(copy.state.usage, usage);
  copy.state.usageByModel = addUsageByModel(copy.state.usageByModel, model, usage);
}

function addCalibration(copy: WorkingCopy, model: string, estimated?: number, reported?: number): void {
  const next = addCalibrationStep(copy.state.calibration?.[model], estimated, reported);
  if (next) copy.state.calibration = { ...copy.state.calibration, [model]: next };
}

function addStreamError(copy: WorkingCopy, event: AgentEventOf<'stream/error'>): void {
  const turn = copy.state.turns[event.turnId];
  if (!turn) return;
  updateTurn(copy, event.turnId, (current) => ({
    errors: [...current.errors, { attemptId: event.attemptId, message: event.data.message, code: event.data.code }],
  }));
  placeDurableEntry(copy, event.turnId, { kind: 'error', index: turn.errors.length });
}

function showRetry(copy: WorkingCopy, event: AgentEventOf<'stream/retrying'>): void {
  if (!isTurnOpen(copy, event.turnId)) return;
  updateTurn(copy, event.turnId, () => ({
    retry: { until: event.data.until, delayMs: event.data.delayMs, reason: event.data.reason },
  }));
}

/** A model call: its start (which ends a retry's wait), its usage, a failed stream and the wait before the next attempt. */
export const STEP_APPLIERS: EventAppliers<'step/started' | 'step/completed' | 'stream/error' | 'stream/retrying'> = {
  'step/started': (copy, event) => updateTurn(copy, event.turnId, () => ({ retry: undefined })),
  'step/completed': addStepUsage,
  'stream/error': addStreamError,
  'stream/retrying': showRetry,
};
