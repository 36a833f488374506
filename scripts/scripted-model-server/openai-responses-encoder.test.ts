import { describe, expect, it } from 'vitest';
import type { ModelStreamEvent } from './model-stream-event';
import {
  encodeOpenAIResponsesResponse,
  encodeOpenAIResponsesStream,
  type OpenAIResponsesEncoderContext,
} from './openai-responses-encoder';

const context: OpenAIResponsesEncoderContext = {
  responseId: 'resp_scripted_7',
  created: 1700000000,
  model: 'gpt-test',
  usage: { promptTokens: 10, completionTokens: 4 },
};

const events: ModelStreamEvent[] = [
  { type: 'reasoning-delta', text: 'Think ' },
  { type: 'reasoning-delta', text: 'first.' },
  { type: 'text-delta', text: 'Calling.' },
  { type: 'tool-call-start', index: 0, id: 'call_0_0_0', name: 'getParameters' },
  { type: 'tool-call-delta', index: 0, argumentsDelta: '{' },
  { type: 'tool-call-delta', index: 0, argumentsDelta: '}' },
  { type: 'tool-call-end', index: 0 },
  { type: 'finish', reason: 'tool-calls' },
];

interface ParsedFrame {
  event: string;
  payload: { type: string; sequence_number: number } & Record<string, unknown>;
}

function parseFrames(frames: string[]): ParsedFrame[] {
  return frames.map((frame) => {
    const [eventLine = '', dataLine = ''] = frame.split('\n');
    return {
      event: eventLine.replace(/^event: /, ''),
      payload: JSON.parse(dataLine.replace(/^data: /, '')) as ParsedFrame['payload'],
    };
  });
}

describe('encodeOpenAIResponsesStream', () => {
  it('sends the events of api.openai.com in order, each named in its event line and numbered from 0', () => {
    const parsed = parseFrames(encodeOpenAIResponsesStream(events, context));
    expect(parsed.map((frame) => frame.payload.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(parsed.every((frame) => frame.event === frame.payload.type)).toBe(true);
    expect(parsed.map((frame) => frame.payload.sequence_number)).toEqual(parsed.map((_, index) => index));
  });

  it('gives every item an id derived from the response id and its output index', () => {
    const parsed = parseFrames(encodeOpenAIResponsesStream(events, context));
    const added = parsed
      .filter((frame) => frame.payload.type === 'response.output_item.added')
      .map((frame) => frame.payload);
    expect(added).toEqual([
      {
        type: 'response.output_item.added',
        sequence_number: 2,
        output_index: 0,
        item: { id: 'rs_scripted_7_0', type: 'reasoning', summary: [] },
      },
      {
        type: 'response.output_item.added',
        sequence_number: 9,
        output_index: 1,
        item: { id: 'msg_scripted_7_1', type: 'message', status: 'in_progress', content: [], role: 'assistant' },
      },
      {
        type: 'response.output_item.added',
        sequence_number: 15,
        output_index: 2,
        item: {
          id: 'fc_scripted_7_2',
          type: 'function_call',
          status: 'in_progress',
          arguments: '',
          call_id: 'call_0_0_0',
          name: 'getParameters',
        },
      },
    ]);
    expect(parsed.at(-1)?.payload).toMatchObject({
      type: 'response.completed',
      response: {
        id: 'resp_scripted_7',
        status: 'completed',
        output: [
          { id: 'rs_scripted_7_0', summary: [{ type: 'summary_text', text: 'Think first.' }] },
          { id: 'msg_scripted_7_1', status: 'completed', content: [{ type: 'output_text', text: 'Calling.' }] },
          { id: 'fc_scripted_7_2', status: 'completed', arguments: '{}' },
        ],
        usage: { input_tokens: 10, output_tokens: 4, total_tokens: 14 },
      },
    });
  });

  it('adds encrypted_content to reasoning items only when the request included it', () => {
    const withEncrypted = parseFrames(
      encodeOpenAIResponsesStream(events, { ...context, includeEncryptedReasoning: true }),
    );
    const reasoningDone = withEncrypted.find((frame) => frame.payload.type === 'response.output_item.done')?.payload;
    expect(reasoningDone).toMatchObject({
      item: { type: 'reasoning', encrypted_content: expect.stringMatching(/^gAAAAA/) },
    });
  });

  it('stops after the last delta, without done events or response.completed, when the events have no finish', () => {
    const parsed = parseFrames(encodeOpenAIResponsesStream([{ type: 'text-delta', text: 'half' }], context));
    expect(parsed.map((frame) => frame.payload.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
    ]);
  });
});

describe('encodeOpenAIResponsesResponse', () => {
  it('is the response object that response.completed carries', () => {
    const parsed = parseFrames(encodeOpenAIResponsesStream(events, context));
    expect(encodeOpenAIResponsesResponse(events, context)).toEqual(parsed.at(-1)?.payload['response']);
  });
});
