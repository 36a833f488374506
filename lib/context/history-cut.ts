import type { ModelMessage } from 'ai';

/** The end of a turn, or of one step inside it: where a compaction may cut the conversation. */
export interface HistoryCut {
  turnId: string;
  stepId?: string;
}

/** `messages[0..index)` is everything up to and including `cut`. */
export interface HistoryBoundary {
  index: number;
  cut: HistoryCut;
}

/** The summary a compaction left, and where it cut. */
export interface HistorySummary {
  cut: HistoryCut;
  summary: string;
}

/** A fixed wording, so the summary message is byte-identical in every request until the next compaction. */
export function summaryMessage(summary: string): ModelMessage {
  return {
    role: 'user',
    content:
      'Earlier turns of this conversation were summarised to fit the model’s context window; the summary follows. ' +
      'Results it mentions can be fetched again with the tools.\n<conversation-summary>\n' +
      summary +
      '\n</conversation-summary>',
  };
}

function sameCut(left: HistoryCut, right: HistoryCut): boolean {
  return left.turnId === right.turnId && left.stepId === right.stepId;
}

/**
 * The messages with everything up to the summary's cut replaced by the summary. A cut that is not among the
 * boundaries (a turn the panel has not loaded) leaves the messages as they are.
 */
export function applySummary(
  messages: readonly ModelMessage[],
  boundaries: readonly HistoryBoundary[],
  summary: HistorySummary | undefined,
): { messages: ModelMessage[]; boundaries: HistoryBoundary[] } {
  if (!summary) return { messages: [...messages], boundaries: [...boundaries] };
  const boundary = boundaries.find((candidate) => sameCut(candidate.cut, summary.cut));
  if (!boundary) return { messages: [...messages], boundaries: [...boundaries] };
  return {
    messages: [summaryMessage(summary.summary), ...messages.slice(boundary.index)],
    boundaries: boundaries
      .filter((candidate) => candidate.index > boundary.index)
      .map((candidate) => ({ index: candidate.index - boundary.index + 1, cut: candidate.cut })),
  };
}
