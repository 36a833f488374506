import type { ModelStreamEvent } from './model-stream-event';
import { isBreakAfterStep, isCutAtStep, isToolCallsStep, isTruncateStep, type StreamableStep } from './script';

export interface StepPosition {
  readonly turnIndex: number;
  readonly stepIndex: number;
}

export interface StepToEventsOptions {
  /** Start of generated tool call ids, which end in `<turn>_<step>_<index>`; `call_` (OpenAI) unless given, `toolu_` suits Anthropic. */
  readonly toolCallIdPrefix?: string;
}

const longestTextDeltaCodePoints = 8;
const argumentsSplitCharacters = new Set(['{', '}', '[', ']', ',', ':', '"']);

/** The events of one reply. Truncate and breakAfter steps get no `finish`: their streams stop early. */
export function stepToEvents(
  step: StreamableStep,
  position: StepPosition,
  options: StepToEventsOptions = {},
): ModelStreamEvent[] {
  if (isTruncateStep(step)) {
    return textEvents('text-delta', step.truncate.text);
  }
  if (isBreakAfterStep(step)) {
    return textEvents('text-delta', step.breakAfter.text);
  }
  if (isCutAtStep(step)) {
    return [...textEvents('text-delta', step.cutAt.text), { type: 'finish', reason: 'stop' }];
  }
  if (isToolCallsStep(step)) {
    const events: ModelStreamEvent[] = [
      ...textEvents('reasoning-delta', step.reasoning ?? ''),
      ...textEvents('text-delta', step.text ?? ''),
    ];
    const toolCallIdPrefix = options.toolCallIdPrefix ?? 'call_';
    step.toolCalls.forEach((toolCall, index) => {
      const id = toolCall.id ?? `${toolCallIdPrefix}${position.turnIndex}_${position.stepIndex}_${index}`;
      const argumentsText =
        typeof toolCall.arguments === 'string' ? toolCall.arguments : JSON.stringify(toolCall.arguments);
      events.push({ type: 'tool-call-start', index, id, name: toolCall.name });
      for (const argumentsDelta of splitArgumentsIntoDeltas(argumentsText)) {
        events.push({ type: 'tool-call-delta', index, argumentsDelta });
      }
      events.push({ type: 'tool-call-end', index });
    });
    events.push({ type: 'finish', reason: 'tool-calls' });
    return events;
  }
  return [
    ...textEvents('reasoning-delta', step.reasoning ?? ''),
    ...textEvents('text-delta', step.text),
    { type: 'finish', reason: 'stop' },
  ];
}

function textEvents(type: 'text-delta' | 'reasoning-delta', text: string): ModelStreamEvent[] {
  return splitTextIntoDeltas(text).map((delta) => ({ type, text: delta }));
}

/**
 * Splits into words (each keeping its trailing whitespace); words longer than
 * eight code points, such as Chinese sentences without spaces, are cut further so
 * that every script streams in several deltas.
 */
export function splitTextIntoDeltas(text: string): string[] {
  const words = text.match(/\s*\S+\s*/g) ?? (text.length > 0 ? [text] : []);
  return words.flatMap((word) => {
    const codePoints = Array.from(word);
    if (codePoints.length <= longestTextDeltaCodePoints) return [word];
    const pieces: string[] = [];
    for (let start = 0; start < codePoints.length; start += longestTextDeltaCodePoints) {
      pieces.push(codePoints.slice(start, start + longestTextDeltaCodePoints).join(''));
    }
    return pieces;
  });
}

/** Cuts after every JSON punctuation character, the way real providers fragment tool arguments. */
export function splitArgumentsIntoDeltas(argumentsText: string): string[] {
  const pieces: string[] = [];
  let current = '';
  for (const character of argumentsText) {
    current += character;
    if (argumentsSplitCharacters.has(character)) {
      pieces.push(current);
      current = '';
    }
  }
  if (current.length > 0) pieces.push(current);
  return pieces;
}
