import type { ModelFinishReason, ModelStreamEvent } from './model-stream-event';
import type { TokenUsage } from './openai-chat-encoder';
import { sseFrame } from './sse-frame';

export interface AnthropicMessagesEncoderContext {
  /** e.g. `msg_scripted_3` */
  readonly messageId: string;
  readonly model: string;
  readonly usage: TokenUsage;
}

export type AnthropicContentBlock =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown };

type OpenBlock =
  | { readonly type: 'thinking'; readonly index: number; text: string }
  | { readonly type: 'text'; readonly index: number; text: string }
  | { readonly type: 'tool_use'; readonly index: number; readonly id: string; readonly name: string; text: string };

const stopReasons: Record<ModelFinishReason, 'end_turn' | 'tool_use'> = {
  stop: 'end_turn',
  'tool-calls': 'tool_use',
};

/**
 * Frames as api.anthropic.com sends them, each with an `event:` line:
 * message_start, then per content block (thinking, text, tool_use)
 * content_block_start → content_block_delta… → content_block_stop, a ping after
 * the first block starts, and message_delta (stop_reason, usage) + message_stop.
 * Without a `finish` event the stream stops after the last delta.
 */
export function encodeAnthropicMessagesStream(
  events: readonly ModelStreamEvent[],
  context: AnthropicMessagesEncoderContext,
): string[] {
  return encodeMessage(events, context).frames;
}

/** The non-streaming reply (`stream` absent or false). */
export function encodeAnthropicMessage(
  events: readonly ModelStreamEvent[],
  context: AnthropicMessagesEncoderContext,
): Record<string, unknown> {
  const { blocks, stopReason } = encodeMessage(events, context);
  const { usage, stop_sequence, ...envelope } = messageEnvelope(context);
  return {
    ...envelope,
    content: blocks,
    stop_reason: stopReason,
    stop_sequence,
    usage: { ...usage, output_tokens: context.usage.completionTokens },
  };
}

/** A fixed stand-in for the signature Anthropic puts on thinking blocks; clients only pass it back. */
export const scriptedThinkingSignature = Buffer.from('scripted-thinking-signature', 'utf8').toString('base64');

function encodeMessage(
  events: readonly ModelStreamEvent[],
  context: AnthropicMessagesEncoderContext,
): { frames: string[]; blocks: AnthropicContentBlock[]; stopReason: string | null } {
  const frames: string[] = [];
  const blocks: AnthropicContentBlock[] = [];
  let open: OpenBlock | undefined;
  let stopReason: string | null = null;
  let pinged = false;
  const push = (payload: { type: string } & Record<string, unknown>): void => {
    frames.push(sseFrame(payload, { event: payload.type }));
  };

  const close = (): void => {
    if (open === undefined) return;
    const block = open;
    open = undefined;
    if (block.type === 'thinking') {
      push({
        type: 'content_block_delta',
        index: block.index,
        delta: { type: 'signature_delta', signature: scriptedThinkingSignature },
      });
      blocks.push({ type: 'thinking', thinking: block.text, signature: scriptedThinkingSignature });
    } else if (block.type === 'text') {
      blocks.push({ type: 'text', text: block.text });
    } else {
      blocks.push({ type: 'tool_use', id: block.id, name: block.name, input: parseToolInput(block.text) });
    }
    push({ type: 'content_block_stop', index: block.index });
  };

  let startedBlocks = 0;
  const start = <Block extends OpenBlock>(block: Block, contentBlock: Record<string, unknown>): Block => {
    close();
    open = block;
    startedBlocks += 1;
    push({ type: 'content_block_start', index: block.index, content_block: contentBlock });
    if (!pinged) {
      push({ type: 'ping' });
      pinged = true;
    }
    return block;
  };

  const { usage, stop_sequence, ...envelope } = messageEnvelope(context);
  push({ type: 'message_start', message: { ...envelope, content: [], stop_reason: null, stop_sequence, usage } });
  for (const event of events) {
    switch (event.type) {
      case 'reasoning-delta': {
        const block =
          open?.type === 'thinking'
            ? open
            : start(
                { type: 'thinking', index: startedBlocks, text: '' },
                { type: 'thinking', thinking: '', signature: '' },
              );
        block.text += event.text;
        push({
          type: 'content_block_delta',
          index: block.index,
          delta: { type: 'thinking_delta', thinking: event.text },
        });
        break;
      }
      case 'text-delta': {
        const block =
          open?.type === 'text'
            ? open
            : start({ type: 'text', index: startedBlocks, text: '' }, { type: 'text', text: '' });
        block.text += event.text;
        push({ type: 'content_block_delta', index: block.index, delta: { type: 'text_delta', text: event.text } });
        break;
      }
      case 'tool-call-start': {
        const block = start(
          { type: 'tool_use', index: startedBlocks, id: event.id, name: event.name, text: '' },
          { type: 'tool_use', id: event.id, name: event.name, input: {} },
        );
        // The API opens every tool input with an empty fragment.
        push({
          type: 'content_block_delta',
          index: block.index,
          delta: { type: 'input_json_delta', partial_json: '' },
        });
        break;
      }
      case 'tool-call-delta':
        if (open?.type === 'tool_use') {
          open.text += event.argumentsDelta;
          push({
            type: 'content_block_delta',
            index: open.index,
            delta: { type: 'input_json_delta', partial_json: event.argumentsDelta },
          });
        }
        break;
      case 'tool-call-end':
        close();
        break;
      case 'finish':
        close();
        stopReason = stopReasons[event.reason];
        push({
          type: 'message_delta',
          delta: { stop_reason: stopReason, stop_sequence: null },
          usage: {
            input_tokens: context.usage.promptTokens - (context.usage.cachedTokens ?? 0),
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: context.usage.cachedTokens ?? 0,
            output_tokens: context.usage.completionTokens,
          },
        });
        push({ type: 'message_stop' });
        break;
    }
  }
  return { frames, blocks, stopReason };
}

function messageEnvelope(context: AnthropicMessagesEncoderContext) {
  return {
    id: context.messageId,
    type: 'message',
    role: 'assistant',
    model: context.model,
    stop_sequence: null,
    usage: {
      input_tokens: context.usage.promptTokens - (context.usage.cachedTokens ?? 0),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: context.usage.cachedTokens ?? 0,
      output_tokens: 1,
    },
  } as const;
}

// The API always has an object here; scripted arguments that are not JSON become an empty object.
function parseToolInput(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text === '' ? '{}' : text);
    return typeof value === 'object' && value !== null ? value : {};
  } catch {
    return {};
  }
}
