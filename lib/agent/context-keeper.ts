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
  /** Whether requests declare the tools (an AI SDK chat server declares its own): they count with the prompt. */
  declaresTools?: boolean;
  /** Writes the summary; the digest is used when it throws. Unset: always the digest. */
  summarise?(covered: ModelMessage[], maxOutputTokens: number, signal: AbortSignal): Promise<string>;
}

/**
 * The shares below are of the room: the limit less the system prompt and tool definitions, which every request
 * sends whole (about 6,000 tokens here, so three quarters of an 8k window). Shares of the whole limit would compact
 * on every request there, and at 32k before the page observations had aged.
 */
/** A request whose conversation passes this share of the room is compacted first: the next result must still fit. */
export const COMPACT_AT_SHARE = 0.9;
/** After a compaction the kept tail, as it is then sent, is at most this share of the room. */
const KEEP_SHARE = 0.25;
const SUMMARY_SHARE = 0.15;
/** A summary shorter than this says too little to go on from, however small the room. */
const MIN_SUMMARY_TOKENS = 256;
/** Less room than this and a summary would take as much as it frees: the keeper no longer compacts. */
export const MIN_ROOM_TOKENS = 2 * MIN_SUMMARY_TOKENS;

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
    private readonly preambleText: { system?: string; toolsText: string },
  ) {
    this.calibration = options.calibration;
    this.boundaries = [...options.boundaries];
    this.aging = agingPolicyFor(options.limitTokens);
  }

  private preambleTokens: number | undefined;
  private last: { messages: readonly ModelMessage[]; length: number; tokens: number } | undefined;
  /** Each message's count by its JSON: the loop resends the same messages every step, aged afresh each time. */
  private readonly counts = new Map<string, number>();

  /** The tokenizer's count of what a request with these messages sends, uncalibrated. */
  estimate(messages: readonly ModelMessage[]): number {
    const last = this.last;
    if (last && last.messages === messages && last.length === messages.length) return last.tokens;
    const tokens = this.preamble() + sum(this.messageTokens(ageToolResults(messages, this.aging)));
    this.last = { messages, length: messages.length, tokens };
    return tokens;
  }

  /** The system prompt and the tool definitions, uncalibrated. */
  private preamble(): number {
    const { system, toolsText } = this.preambleText;
    const text = this.options.declaresTools === false ? { system } : { system, toolsText };
    this.preambleTokens ??= preambleTokens(this.options.counter, text);
    return this.preambleTokens;
  }

  /** What a prompt has left for the conversation once the system prompt and tools are in. */
  roomTokens(): number {
    return Math.max(0, this.options.limitTokens - this.calibrated(this.preamble()));
  }

  /**
   * The system prompt and tools leave less room than a summary needs (a small local model's window): compacting
   * cannot help, so the requests go as they are and the provider's answer says whether they fit.
   */
  crowded(): { preambleTokens: number; limitTokens: number } | undefined {
    if (this.roomTokens() >= MIN_ROOM_TOKENS) return undefined;
    return { preambleTokens: this.calibrated(this.preamble()), limitTokens: this.options.limitTokens };
  }

  private messageTokens(messages: readonly ModelMessage[]): number[] {
    return messages.map((message) => {
      const key = JSON.stringify(message);
      let tokens = this.counts.get(key);
      if (tokens === undefined) {
        tokens = estimatePromptTokens(this.options.counter, { messages: [message] });
        this.counts.set(key, tokens);
      }
      return tokens;
    });
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
    if (this.crowded()) return false;
    const conversation = this.calibrated(this.estimate(messages)) - this.calibrated(this.preamble());
    return conversation > this.roomTokens() * COMPACT_AT_SHARE;
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
    // Summarised as it was sent: older pages as their stubs, so the summary request is no larger than a request was.
    const covered = ageToolResults(messages.slice(0, boundary.index), this.aging);
    const coveredTokens = this.calibrated(sum(this.messageTokens(covered)));
    const maxSummaryTokens = Math.max(MIN_SUMMARY_TOKENS, Math.floor(this.roomTokens() * SUMMARY_SHARE));
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
    const keep = this.roomTokens() * KEEP_SHARE;
    // The tail as it will be sent, aged on its own: with fewer observations after the cut, more of them go in full.
    for (const boundary of usable)
      if (this.calibrated(sum(this.messageTokens(ageToolResults(messages.slice(boundary.index), this.aging)))) <= keep)
        return boundary;
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

/** Every turn sends the same system prompt and tools: counted once per counter, not once per turn. */
const preambleCounts = new WeakMap<TokenCounter, Map<string, number>>();

function preambleTokens(counter: TokenCounter, text: { system?: string; toolsText?: string }): number {
  const counts = preambleCounts.get(counter) ?? new Map<string, number>();
  preambleCounts.set(counter, counts);
  const key = JSON.stringify(text);
  const known = counts.get(key);
  if (known !== undefined) return known;
  const tokens = estimatePromptTokens(counter, { ...text, messages: [] });
  // Bounded: a profile's MCP servers change the tools now and then, not on every turn.
  if (counts.size > 16) counts.clear();
  counts.set(key, tokens);
  return tokens;
}

function sum(counts: readonly number[]): number {
  return counts.reduce((total, count) => total + count, 0);
}
