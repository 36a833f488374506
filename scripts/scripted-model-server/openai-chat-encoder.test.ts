import { describe, expect, it } from 'vitest';
import {
  encodeOpenAIChatCompletion,
  encodeOpenAIChatStream,
  type OpenAIChatEncoderContext,
} from './openai-chat-encoder';
import type { ModelStreamEvent } from './model-stream-event';

const context: OpenAIChatEncoderContext = {
  completionId: 'chatcmpl-scripted-1',
  created: 1700000000,
  model: 'scripted-model',
  usage: { promptTokens: 10, completionTokens: 3 },
};

const toolCallEvents: ModelStreamEvent[] = [
  { type: 'tool-call-start', index: 0, id: 'call_0_0_0', name: 'getParameters' },
  { type: 'tool-call-delta', index: 0, argumentsDelta: '{' },
  { type: 'tool-call-delta', index: 0, argumentsDelta: '}' },
  { type: 'tool-call-end', index: 0 },
  { type: 'finish', reason: 'tool-calls' },
];

const parseFrame = (frame: string): unknown => JSON.parse(frame.replace(/^data: /, ''));

describe('encodeOpenAIChatStream', () => {
  it('announces the role together with a leading tool call, then streams arguments and finishes', () => {
    const frames = encodeOpenAIChatStream(toolCallEvents, context);
    expect(frames).toHaveLength(5);
    expect(parseFrame(frames[0] ?? '')).toEqual({
      id: 'chatcmpl-scripted-1',
      object: 'chat.completion.chunk',
      created: 1700000000,
      model: 'scripted-model',
      system_fingerprint: 'fp_scripted',
      choices: [
        {
          index: 0,
          delta: {
            role: 'assistant',
            content: null,
            refusal: null,
            tool_calls: [
              { index: 0, id: 'call_0_0_0', type: 'function', function: { name: 'getParameters', arguments: '' } },
            ],
          },
          logprobs: null,
          finish_reason: null,
        },
      ],
    });
    expect(parseFrame(frames[3] ?? '')).toMatchObject({ choices: [{ delta: {}, finish_reason: 'tool_calls' }] });
    expect(frames[4]).toBe('data: [DONE]\n\n');
  });

  it('adds a usage chunk when asked to', () => {
    const frames = encodeOpenAIChatStream([{ type: 'finish', reason: 'stop' }], {
      ...context,
      includeUsageChunk: true,
    });
    expect(parseFrame(frames.at(-2) ?? '')).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
    });
  });

  it('ends without finish chunk or [DONE] when the events have no finish', () => {
    const frames = encodeOpenAIChatStream([{ type: 'text-delta', text: 'half' }], context);
    expect(frames.map(parseFrame)).toMatchObject([
      { choices: [{ delta: { role: 'assistant', content: '' } }] },
      { choices: [{ delta: { content: 'half' }, finish_reason: null }] },
    ]);
  });
});

describe('encodeOpenAIChatCompletion', () => {
  it('assembles a complete chat.completion from the same events', () => {
    const completion = encodeOpenAIChatCompletion(toolCallEvents, context);
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]).toEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        refusal: null,
        tool_calls: [{ id: 'call_0_0_0', type: 'function', function: { name: 'getParameters', arguments: '{}' } }],
      },
      logprobs: null,
      finish_reason: 'tool_calls',
    });
    expect(completion.usage.total_tokens).toBe(13);
  });
});
