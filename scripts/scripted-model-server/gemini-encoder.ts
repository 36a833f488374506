import type { ModelStreamEvent } from './model-stream-event';
import type { TokenUsage } from './openai-chat-encoder';
import { sseFrame } from './sse-frame';

export interface GeminiEncoderContext {
  /** e.g. `scripted-3` */
  readonly responseId: string;
  /** The model named in the request path. */
  readonly modelVersion: string;
  readonly usage: TokenUsage;
}

export type GeminiPart =
  | { text: string; thought?: true; thoughtSignature?: string }
  | { functionCall: { name: string; args: unknown }; thoughtSignature?: string };

/** A fixed stand-in for the signature Gemini attaches after thinking; clients only pass it back. */
export const scriptedThoughtSignature = Buffer.from('scripted-thought-signature', 'utf8').toString('base64');

interface PendingCall {
  readonly name: string;
  argumentsText: string;
}

/**
 * One `data:` frame per text or thought delta, lines ended with CRLF as
 * Google's servers do. A function call is never streamed in pieces: all calls
 * of a reply arrive whole, together, in the last frame. The last frame carries
 * `finishReason: "STOP"` (Gemini says STOP for tool calls too); without a
 * `finish` event there is no such frame and pending calls are never sent.
 */
export function encodeGeminiStream(events: readonly ModelStreamEvent[], context: GeminiEncoderContext): string[] {
  const frames: string[] = [];
  const calls: PendingCall[] = [];
  let outputCharacters = 0;
  let signaturePending = false;
  const withSignature = <Part extends GeminiPart>(part: Part): Part => {
    if (!signaturePending) return part;
    signaturePending = false;
    return { ...part, thoughtSignature: scriptedThoughtSignature };
  };
  const push = (parts: GeminiPart[], finished: boolean): void => {
    frames.push(
      sseFrame(
        chunk(parts, finished, context, finished ? context.usage.completionTokens : Math.ceil(outputCharacters / 4)),
        { lineEnding: '\r\n' },
      ),
    );
  };

  events.forEach((event, position) => {
    const finishesNext = events[position + 1]?.type === 'finish' && calls.length === 0;
    switch (event.type) {
      case 'reasoning-delta':
        outputCharacters += event.text.length;
        signaturePending = true;
        push([{ text: event.text, thought: true }], false);
        break;
      case 'text-delta':
        outputCharacters += event.text.length;
        push([withSignature({ text: event.text })], finishesNext);
        break;
      case 'tool-call-start':
        calls[event.index] = { name: event.name, argumentsText: '' };
        break;
      case 'tool-call-delta': {
        const call = calls[event.index];
        if (call !== undefined) call.argumentsText += event.argumentsDelta;
        outputCharacters += event.argumentsDelta.length;
        break;
      }
      case 'tool-call-end':
        break;
      case 'finish': {
        const previous = events[position - 1];
        const finishedWithText = previous?.type === 'text-delta' && calls.length === 0;
        if (finishedWithText) break;
        const parts: GeminiPart[] =
          calls.length > 0 ? calls.map((call) => withSignature(functionCallPart(call))) : [{ text: '' }];
        push(parts, true);
        break;
      }
    }
  });
  return frames;
}

/** The non-streaming `:generateContent` reply: the same parts, adjacent texts joined. */
export function encodeGeminiResponse(
  events: readonly ModelStreamEvent[],
  context: GeminiEncoderContext,
): Record<string, unknown> {
  const parts: GeminiPart[] = [];
  const calls: PendingCall[] = [];
  let finished = false;
  let signaturePending = false;
  for (const event of events) {
    if (event.type === 'reasoning-delta' || event.type === 'text-delta') {
      const isThought = event.type === 'reasoning-delta';
      const last = parts.at(-1);
      if (last !== undefined && 'text' in last && (last.thought === true) === isThought) {
        last.text += event.text;
      } else if (isThought) {
        parts.push({ text: event.text, thought: true });
        signaturePending = true;
      } else {
        parts.push(
          signaturePending ? { text: event.text, thoughtSignature: scriptedThoughtSignature } : { text: event.text },
        );
        signaturePending = false;
      }
    }
    if (event.type === 'tool-call-start') calls[event.index] = { name: event.name, argumentsText: '' };
    if (event.type === 'tool-call-delta') {
      const call = calls[event.index];
      if (call !== undefined) call.argumentsText += event.argumentsDelta;
    }
    if (event.type === 'finish') finished = true;
  }
  calls.forEach((call, index) => {
    const part = functionCallPart(call);
    parts.push(index === 0 && signaturePending ? { ...part, thoughtSignature: scriptedThoughtSignature } : part);
  });
  return JSON.parse(JSON.stringify(chunk(parts, finished, context, context.usage.completionTokens))) as Record<
    string,
    unknown
  >;
}

function functionCallPart(call: PendingCall): GeminiPart {
  return { functionCall: { name: call.name, args: parseArguments(call.argumentsText) } };
}

// Gemini sends arguments as an object; scripted arguments that are not JSON go out as the raw string, which the AI SDK also accepts.
function parseArguments(argumentsText: string): unknown {
  try {
    return JSON.parse(argumentsText === '' ? '{}' : argumentsText);
  } catch {
    return argumentsText;
  }
}

function chunk(parts: GeminiPart[], finished: boolean, context: GeminiEncoderContext, candidatesTokenCount: number) {
  return {
    candidates: [{ content: { parts, role: 'model' }, ...(finished ? { finishReason: 'STOP' } : {}), index: 0 }],
    usageMetadata: geminiUsage(context.usage, candidatesTokenCount),
    modelVersion: context.modelVersion,
    responseId: context.responseId,
  };
}

/** Gemini counts thoughts apart from candidates, and cached prompt tokens inside the prompt count. */
function geminiUsage(usage: TokenUsage, outputTokenCount: number) {
  const thoughtsTokenCount = usage.reasoningTokens ?? 0;
  const candidatesTokenCount = Math.max(0, outputTokenCount - thoughtsTokenCount);
  return {
    promptTokenCount: usage.promptTokens,
    candidatesTokenCount,
    totalTokenCount: usage.promptTokens + candidatesTokenCount + thoughtsTokenCount,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: usage.promptTokens }],
    ...(usage.cachedTokens !== undefined ? { cachedContentTokenCount: usage.cachedTokens } : {}),
    ...(usage.reasoningTokens !== undefined ? { thoughtsTokenCount } : {}),
  };
}
