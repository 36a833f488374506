import type { ContextWindow } from './context-window';
import { promptLimitOf } from './context-window';

/** What the panel shows of the context: the latest prompt against what a prompt may hold, and what was compacted. */
export interface ContextMeter {
  usedTokens: number;
  limitTokens: number;
  windowTokens: number;
  /** Of the limit, 0 to 1 (more when a prompt passed it). */
  share: number;
  /** Whether `usedTokens` is the provider's count or the tokenizer's estimate. */
  reported: boolean;
  compactions: number;
  source: ContextWindow['source'];
}

/** Nothing before the conversation's first step; the window is the active profile's. */
export function contextMeterOf(
  lastPrompt: { tokens: number; reported: boolean } | undefined,
  compactions: number,
  window: ContextWindow,
): ContextMeter | undefined {
  if (!lastPrompt) return undefined;
  const limitTokens = promptLimitOf(window);
  return {
    usedTokens: lastPrompt.tokens,
    limitTokens,
    windowTokens: window.windowTokens,
    share: limitTokens > 0 ? lastPrompt.tokens / limitTokens : 1,
    reported: lastPrompt.reported,
    compactions,
    source: window.source,
  };
}

/** "7.8k of 11k tokens" */
export function compactTokens(tokens: number): string {
  if (tokens < 1_000) return String(tokens);
  const thousands = tokens / 1_000;
  return `${thousands < 10 ? thousands.toFixed(1).replace(/\.0$/, '') : Math.round(thousands)}k`;
}
