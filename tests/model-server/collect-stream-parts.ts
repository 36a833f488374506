import type { TextStreamPart, ToolSet } from 'ai';

export interface CollectedToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
}

export interface CollectedStream {
  readonly partTypes: string[];
  readonly text: string;
  readonly textDeltaCount: number;
  readonly reasoning: string;
  /** Concatenated tool-input-delta text per tool call id. */
  readonly toolInputs: ReadonlyMap<string, string>;
  readonly toolInputDeltaCount: number;
  readonly toolCalls: CollectedToolCall[];
  readonly errors: unknown[];
  /** What iterating the stream threw, e.g. when the connection broke. */
  readonly thrown: unknown;
  readonly finishReason: string | undefined;
}

/** Drains a `streamText` full stream into what tests compare against the script. */
export async function collectStreamParts(fullStream: AsyncIterable<TextStreamPart<ToolSet>>): Promise<CollectedStream> {
  const partTypes: string[] = [];
  let text = '';
  let textDeltaCount = 0;
  let reasoning = '';
  const toolInputs = new Map<string, string>();
  let toolInputDeltaCount = 0;
  const toolCalls: CollectedToolCall[] = [];
  const errors: unknown[] = [];
  let finishReason: string | undefined;
  let thrown: unknown;
  try {
    for await (const part of fullStream) {
      partTypes.push(part.type);
      switch (part.type) {
        case 'text-delta':
          text += part.text;
          textDeltaCount += 1;
          break;
        case 'reasoning-delta':
          reasoning += part.text;
          break;
        case 'tool-input-delta':
          toolInputs.set(part.id, (toolInputs.get(part.id) ?? '') + part.delta);
          toolInputDeltaCount += 1;
          break;
        case 'tool-call':
          toolCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
          break;
        case 'error':
          errors.push(part.error);
          break;
        case 'finish':
          finishReason = part.finishReason;
          break;
        default:
          break;
      }
    }
  } catch (error) {
    thrown = error;
  }
  return {
    partTypes,
    text,
    textDeltaCount,
    reasoning,
    toolInputs,
    toolInputDeltaCount,
    toolCalls,
    errors,
    thrown,
    finishReason,
  };
}
