import type { PromptCalibration } from './client-state';

/** Below this many calibrated steps the tokenizer's count is used as it is. */
const MIN_STEPS = 1;
/** A provider that reports something absurd (a cached prompt counted as 0, a proxy's own figure) moves it at most this far. */
const LOWEST = 0.5;
const HIGHEST = 4;

/** How many provider tokens one tokenizer token is for this model, from the steps of the log that had both. */
export function calibrationRatio(calibration: PromptCalibration | undefined): number {
  if (!calibration || calibration.steps < MIN_STEPS || calibration.estimatedTokens <= 0) return 1;
  const ratio = calibration.reportedTokens / calibration.estimatedTokens;
  return Math.min(HIGHEST, Math.max(LOWEST, ratio));
}

/** The calibration with one more step folded in, as the reducer folds `step/completed`. */
export function addCalibrationStep(
  calibration: PromptCalibration | undefined,
  estimated: number | undefined,
  reported: number | undefined,
): PromptCalibration | undefined {
  if (!estimated || reported === undefined) return calibration;
  const current = calibration ?? { estimatedTokens: 0, reportedTokens: 0, steps: 0 };
  return {
    estimatedTokens: current.estimatedTokens + estimated,
    reportedTokens: current.reportedTokens + reported,
    steps: current.steps + 1,
  };
}
