import { describe, expect, it } from 'vitest';
import {
  encodeAnthropicMessage,
  encodeAnthropicMessagesStream,
  scriptedThinkingSignature,
  type AnthropicMessagesEncoderContext,
} from './anthropic-messages-encoder';
import type { ModelStreamEvent } from './model-stream-event';

const context: AnthropicMessagesEncoderContext = {
  messageId: 'msg_scripted_2',
  model: 'claude-test',
  usage: { promptTokens: 12, completionTokens: 5 },
};

const events: ModelStreamEvent[] = [
  { type: 'reasoning-delta', text: 'Hmm.' },
  { type: 'text-delta', text: 'On it.' },
  { type: 'tool-call-start', index: 0, id: 'toolu_0_0_0', name: 'setParameters' },
  { type: 'tool-call-delta', index: 0, argumentsDelta: '{' },
  { type: 'tool-call-delta', index: 0, argumentsDelta: '}' },
  { type: 'tool-call-end', index: 0 },
  { type: 'finish', reason: 'tool-calls' },
];

function parseFrames(frames: string[]): { event: string; payload: Record<string, unknown> }[] {
  return frames.map((frame) => {
    const [eventLine = '', dataLine = ''] = frame.split('\n');
    return {
      event: eventLine.replace(/^event: /, ''),
      payload: JSON.parse(dataLine.replace(/^data: /, '')) as Record<string, unknown>,
    };
  });
}

describe('encodeAnthropicMessagesStream', () => {
  it('opens, fills and closes one content block per kind, with a ping after the first block starts', () => {
    const parsed = parseFrames(encodeAnthropicMessagesStream(events, context));
    expect(parsed.every((frame) => frame.event === frame.payload['type'])).toBe(true);
    expect(parsed.map((frame) => frame.payload)).toEqual([
      {
        type: 'message_start',
        message: {
          id: 'msg_scripted_2',
          type: 'message',
          role: 'assistant',
          model: 'claude-test',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
        },
      },
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'ping' },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Hmm.' } },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'signature_delta', signature: scriptedThinkingSignature },
      },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'On it.' } },
      { type: 'content_block_stop', index: 1 },
      {
        type: 'content_block_start',
        index: 2,
        content_block: { type: 'tool_use', id: 'toolu_0_0_0', name: 'setParameters', input: {} },
      },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '}' } },
      { type: 'content_block_stop', index: 2 },
      {
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: { input_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 5 },
      },
      { type: 'message_stop' },
    ]);
  });

  it('says end_turn for a text reply and stops after the last delta without a finish', () => {
    const finished = parseFrames(
      encodeAnthropicMessagesStream(
        [
          { type: 'text-delta', text: 'Hi' },
          { type: 'finish', reason: 'stop' },
        ],
        context,
      ),
    );
    expect(finished.at(-2)?.payload).toMatchObject({ type: 'message_delta', delta: { stop_reason: 'end_turn' } });
    const truncated = parseFrames(encodeAnthropicMessagesStream([{ type: 'text-delta', text: 'Hi' }], context));
    expect(truncated.map((frame) => frame.payload['type'])).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
    ]);
  });
});

describe('encodeAnthropicMessage', () => {
  it('assembles the non-streaming message with parsed tool input', () => {
    expect(encodeAnthropicMessage(events, context)).toEqual({
      id: 'msg_scripted_2',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [
        { type: 'thinking', thinking: 'Hmm.', signature: scriptedThinkingSignature },
        { type: 'text', text: 'On it.' },
        { type: 'tool_use', id: 'toolu_0_0_0', name: 'setParameters', input: {} },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 5 },
    });
  });
});
