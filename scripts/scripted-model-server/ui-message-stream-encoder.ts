import type { ModelStreamEvent } from './model-stream-event';
import { sseFrame, sseFrameWithData } from './sse-frame';

export interface UIMessageStreamEncoderContext {
  /** Sent in the `start` part; reuse the id of a trailing assistant message so the client appends to it. */
  readonly messageId: string;
}

type OpenPart =
  | { readonly kind: 'reasoning' | 'text'; readonly id: string }
  | { readonly kind: 'tool'; readonly toolCallId: string; readonly toolName: string; inputText: string };

/**
 * The AI SDK UI message stream (`x-vercel-ai-ui-message-stream: v1`) as
 * `streamText(…).toUIMessageStreamResponse()` writes it for one step: start,
 * start-step, reasoning-*, text-*, tool-input-start/delta and
 * tool-input-available (tool-input-error when the arguments are not JSON),
 * finish-step, finish and `data: [DONE]`. Without a `finish` event the stream
 * stops after the last delta.
 */
export function encodeUIMessageStream(
  events: readonly ModelStreamEvent[],
  context: UIMessageStreamEncoderContext,
): string[] {
  const frames: string[] = [];
  const push = (part: { type: string } & Record<string, unknown>): void => {
    frames.push(sseFrame(part));
  };
  let open: OpenPart | undefined;
  let partCount = 0;
  const close = (): void => {
    if (open === undefined) return;
    const part = open;
    open = undefined;
    if (part.kind === 'tool') {
      const input = parseInput(part.inputText);
      if (input.success) {
        push({
          type: 'tool-input-available',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: input.value,
        });
      } else {
        push({
          type: 'tool-input-error',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: part.inputText,
          errorText: `Invalid input for tool ${part.toolName}: JSON parsing failed: Text: ${part.inputText}.`,
        });
      }
      return;
    }
    push({ type: `${part.kind}-end`, id: part.id });
  };
  const openText = (kind: 'reasoning' | 'text'): string => {
    if (open?.kind === kind) return open.id;
    close();
    const id = `${kind}-${partCount}`;
    partCount += 1;
    open = { kind, id };
    push({ type: `${kind}-start`, id });
    return id;
  };

  push({ type: 'start', messageId: context.messageId });
  push({ type: 'start-step' });
  for (const event of events) {
    switch (event.type) {
      case 'reasoning-delta':
        push({ type: 'reasoning-delta', id: openText('reasoning'), delta: event.text });
        break;
      case 'text-delta':
        push({ type: 'text-delta', id: openText('text'), delta: event.text });
        break;
      case 'tool-call-start':
        close();
        open = { kind: 'tool', toolCallId: event.id, toolName: event.name, inputText: '' };
        push({ type: 'tool-input-start', toolCallId: event.id, toolName: event.name });
        break;
      case 'tool-call-delta':
        if (open?.kind === 'tool') {
          open.inputText += event.argumentsDelta;
          push({ type: 'tool-input-delta', toolCallId: open.toolCallId, inputTextDelta: event.argumentsDelta });
        }
        break;
      case 'tool-call-end':
        close();
        break;
      case 'finish':
        close();
        push({ type: 'finish-step' });
        push({ type: 'finish', finishReason: event.reason });
        frames.push(sseFrameWithData('[DONE]'));
        break;
    }
  }
  return frames;
}

function parseInput(text: string): { success: true; value: unknown } | { success: false } {
  try {
    return { success: true, value: JSON.parse(text === '' ? '{}' : text) };
  } catch {
    return { success: false };
  }
}
