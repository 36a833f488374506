import type { ModelMessage } from 'ai';
import { ageToolResults, agingPolicyFor, type AgingPolicy } from '../context/age-tool-results';
import { estimatePromptTokens } from '../context/estimate-prompt-tokens';
import { historyDigest } from '../context/history-digest';
import { applySummary, summaryMessage, type HistoryBoundary } from '../context/history-cut';
import { addCalibrationStep, calibrationRatio } from '../state/prompt-calibration';
import type { TokenCounter } from '../context/token-counter';
import { errorText } from '../protocol/error-text';
import type { AgentEventDraft } from '../protocol/agent-event';
import type { PromptCalibration } from '../state/client-state';

/** What a turn needs to keep its requests inside the model's window. */
export interface ContextOptions {
  counter: TokenCounter;
  /** The window less the output reserve: no request's prompt may pass it. */
  limitTokens: number;
  /** Where the history the turn started with may be cut (from `modelHistoryWithBoundaries`). */
  boundaries: HistoryBoundary[];
  /** The log's calibration for this model when the turn started. */
  calibration?: PromptCalibration;
  /** Writes the summary; the digest is used when it throws. Unset: always the digest. */
  summarise?(covered: ModelMessage[], maxOutputTokens: number, signal: AbortSignal): Promise<string>;
}

/** A request above this share of the limit is compacted first: the next result it appends must still fit. */
export const COMPACT_AT_SHARE = 0.8;
/** After a compaction the kept tail is at most this share of the limit. */
const KEEP_SHARE = 0.4;
const SUMMARY_SHARE = 0.15;

export interface Compacted {
  messages: ModelMessage[];
  event: AgentEventDraft;
}

/** Counts requests, learns the provider's ratio from this turn's steps, and compacts the history when it must. */
export class ContextKeeper {
  private calibration: PromptCalibration | undefined;
  private boundaries: HistoryBoundary[];
  /** The aging every request of the turn is sent with, so what is counted is what is sent. */
  private readonly aging: AgingPolicy;

  constructor(
    private readonly options: ContextOptions,
    private readonly ids: { sessionId: string; turnId: string; newId(): string; now(): number },
    private readonly preamble: { system?: string; toolsText: string },
  ) {
    this.calibration = options.calibration;
    this.boundaries = [...options.boundaries];
    this.aging = agingPolicyFor(options.limitTokens);
  }

  private preambleTokens: number | undefined;
  private last: { messages: readonly ModelMessage[]; length: number; tokens: number } | undefined;

  /** The tokenizer's count of what a request with these messages sends, uncalibrated. */
  estimate(messages: readonly ModelMessage[]): number {
    const last = this.last;
    if (last && last.messages === messages && last.length === messages.length) return last.tokens;
    this.preambleTokens ??= estimatePromptTokens(this.options.counter, { ...this.preamble, messages: [] });
    const tokens =
      this.preambleTokens +
      this.messageTokens(ageToolResults(messages, this.aging)).reduce((sum, count) => sum + count, 0);
    this.last = { messages, length: messages.length, tokens };
    return tokens;
  }

  private messageTokens(messages: readonly ModelMessage[]): number[] {
    return messages.map((message) => estimatePromptTokens(this.options.counter, { messages: [message] }));
  }

  calibrated(estimate: number): number {
    return Math.ceil(estimate * calibrationRatio(this.calibration));
  }

  /** A step's estimate and the provider's reported input tokens, folded in as the reducer folds its event. */
  observe(estimate: number, reportedInputTokens: number | undefined): void {
    this.calibration = addCalibrationStep(this.calibration, estimate, reportedInputTokens);
  }

  /** A step of this turn ended at `index` (after its tool results): a later compaction may cut there. */
  markStep(index: number, stepId: string): void {
    this.boundaries.push({ index, cut: { turnId: this.ids.turnId, stepId } });
  }

  needsCompaction(messages: readonly ModelMessage[]): boolean {
    return this.calibrated(this.estimate(messages)) > this.options.limitTokens * COMPACT_AT_SHARE;
  }

  /**
   * Replaces everything up to a boundary with a summary: at the threshold, the earliest boundary whose tail fits in
   * the kept share, else the last one; asked by the user, the end of the last turn before the newest. Undefined when
   * there is no boundary to cut at.
   */
  async compact(
    messages: ModelMessage[],
    trigger: 'threshold' | 'user',
    signal: AbortSignal,
  ): Promise<Compacted | undefined> {
    const boundary = trigger === 'user' ? this.lastTurnBoundary(messages) : this.chooseBoundary(messages);
    if (!boundary) return undefined;
    const covered = messages.slice(0, boundary.index);
    const coveredTokens = this.calibrated(
      this.messageTokens(ageToolResults(covered, this.aging)).reduce((sum, count) => sum + count, 0),
    );
    const maxSummaryTokens = Math.max(256, Math.floor(this.options.limitTokens * SUMMARY_SHARE));
    const { summary, method, fallbackReason } = await this.summarise(covered, maxSummaryTokens, signal);
    const next = applySummary(messages, this.boundaries, { cut: boundary.cut, summary });
    this.boundaries = next.boundaries;
    const summaryTokens = this.calibrated(this.messageTokens([summaryMessage(summary)])[0]);
    const event: AgentEventDraft = {
      type: 'context/compacted',
      sessionId: this.ids.sessionId,
      compactionId: this.ids.newId(),
      time: this.ids.now(),
      data: {
        throughTurnId: boundary.cut.turnId,
        ...(boundary.cut.stepId ? { throughStepId: boundary.cut.stepId } : {}),
        summary,
        summaryTokens,
        coveredTokens,
        method,
        trigger,
        ...(fallbackReason ? { fallbackReason } : {}),
      },
    };
    return { messages: next.messages, event };
  }

  private usableBoundaries(messages: readonly ModelMessage[]): HistoryBoundary[] {
    return this.boundaries.filter((boundary) => boundary.index > 1 && boundary.index < messages.length);
  }

  private lastTurnBoundary(messages: readonly ModelMessage[]): HistoryBoundary | undefined {
    const usable = this.usableBoundaries(messages);
    return usable.findLast((boundary) => boundary.cut.stepId === undefined) ?? usable.at(-1);
  }

  private chooseBoundary(messages: readonly ModelMessage[]): HistoryBoundary | undefined {
    const usable = this.usableBoundaries(messages);
    const keep = this.options.limitTokens * KEEP_SHARE;
    // Each message counted once, as aged in the full request: the tail after a boundary is a suffix sum.
    const counts = this.messageTokens(ageToolResults(messages, this.aging));
    const suffix = new Array<number>(counts.length + 1).fill(0);
    for (let index = counts.length - 1; index >= 0; index--) suffix[index] = suffix[index + 1] + counts[index];
    for (const boundary of usable) if (this.calibrated(suffix[boundary.index]) <= keep) return boundary;
    return usable.at(-1);
  }

  private async summarise(
    covered: ModelMessage[],
    maxSummaryTokens: number,
    signal: AbortSignal,
  ): Promise<{ summary: string; method: 'model' | 'digest'; fallbackReason?: string }> {
    let fallbackReason = 'No model to summarise with.';
    if (this.options.summarise)
      try {
        const summary = await this.options.summarise(covered, maxSummaryTokens, signal);
        return { summary: clipToTokens(this.options.counter, summary, maxSummaryTokens * 2), method: 'model' };
      } catch (error) {
        if (signal.aborted) throw error;
        fallbackReason = `The summary request failed: ${errorText(error)}`.slice(0, 2000);
      }
    const digest = clipToTokens(this.options.counter, historyDigest(covered), maxSummaryTokens);
    return { summary: digest, method: 'digest', fallbackReason };
  }
}

/** Keeps the head and the end of a text that is too long: the first requests and the latest state both matter. */
function clipToTokens(counter: TokenCounter, text: string, maxTokens: number): string {
  if (counter.count(text) <= maxTokens) return text;
  const lines = text.split('\n');
  const head = lines.slice(0, 6);
  let budget = maxTokens - counter.count(head.join('\n')) - 8;
  const tail: string[] = [];
  for (let index = lines.length - 1; index >= head.length; index--) {
    budget -= counter.count(lines[index]) + 1;
    if (budget < 0) break;
    tail.unshift(lines[index]);
  }
  return [...head, '… (earlier lines left out)', ...tail].join('\n');
}
