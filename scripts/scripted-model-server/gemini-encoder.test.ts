import { describe, expect, it } from 'vitest';
import {
  encodeGeminiResponse,
  encodeGeminiStream,
  scriptedThoughtSignature,
  type GeminiEncoderContext,
} from './gemini-encoder';
import type { ModelStreamEvent } from './model-stream-event';

const context: GeminiEncoderContext = {
  responseId: 'scripted-4',
  modelVersion: 'gemini-test',
  usage: { promptTokens: 8, completionTokens: 6 },
};

const toolEvents: ModelStreamEvent[] = [
  { type: 'reasoning-delta', text: 'Two calls.' },
  { type: 'text-delta', text: 'Reading.' },
  { type: 'tool-call-start', index: 0, id: 'call_0_0_0', name: 'getParameters' },
  { type: 'tool-call-delta', index: 0, argumentsDelta: '{"target":' },
  { type: 'tool-call-delta', index: 0, argumentsDelta: '"particles"}' },
  { type: 'tool-call-end', index: 0 },
  { type: 'tool-call-start', index: 1, id: 'call_0_0_1', name: 'setParameters' },
  { type: 'tool-call-delta', index: 1, argumentsDelta: '{}' },
  { type: 'tool-call-end', index: 1 },
  { type: 'finish', reason: 'tool-calls' },
];

const payloads = (frames: string[]): unknown[] =>
  frames.map((frame) => JSON.parse(frame.replace(/^data: /, '')) as unknown);

describe('encodeGeminiStream', () => {
  it('ends every line with CRLF', () => {
    for (const frame of encodeGeminiStream(toolEvents, context)) {
      expect(frame.startsWith('data: {')).toBe(true);
      expect(frame.endsWith('}\r\n\r\n')).toBe(true);
    }
  });

  it('streams thoughts and text, then sends all function calls whole in the last frame with finishReason STOP', () => {
    const [thought, text, calls, ...rest] = payloads(encodeGeminiStream(toolEvents, context));
    expect(rest).toEqual([]);
    expect(thought).toMatchObject({
      candidates: [{ content: { parts: [{ text: 'Two calls.', thought: true }], role: 'model' }, index: 0 }],
    });
    expect(thought).not.toHaveProperty('candidates.0.finishReason');
    expect(text).toMatchObject({
      candidates: [{ content: { parts: [{ text: 'Reading.', thoughtSignature: scriptedThoughtSignature }] } }],
    });
    expect(calls).toEqual({
      candidates: [
        {
          content: {
            parts: [
              { functionCall: { name: 'getParameters', args: { target: 'particles' } } },
              { functionCall: { name: 'setParameters', args: {} } },
            ],
            role: 'model',
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: 8,
        candidatesTokenCount: 6,
        totalTokenCount: 14,
        promptTokensDetails: [{ modality: 'TEXT', tokenCount: 8 }],
      },
      modelVersion: 'gemini-test',
      responseId: 'scripted-4',
    });
  });

  it('puts finishReason on the last text frame of a text reply, and sends none when the events have no finish', () => {
    const finished = payloads(
      encodeGeminiStream(
        [
          { type: 'text-delta', text: 'a ' },
          { type: 'text-delta', text: 'b' },
          { type: 'finish', reason: 'stop' },
        ],
        context,
      ),
    );
    expect(finished).toHaveLength(2);
    expect(finished[1]).toMatchObject({ candidates: [{ content: { parts: [{ text: 'b' }] }, finishReason: 'STOP' }] });
    const truncated = payloads(
      encodeGeminiStream(
        [
          { type: 'text-delta', text: 'a ' },
          { type: 'tool-call-start', index: 0, id: 'x', name: 'lost' },
        ],
        context,
      ),
    );
    expect(truncated).toHaveLength(1);
    expect(JSON.stringify(truncated)).not.toContain('finishReason');
  });

  it('sends arguments that are not JSON as the raw string', () => {
    const events: ModelStreamEvent[] = [
      { type: 'tool-call-start', index: 0, id: 'x', name: 'broken' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a": tru' },
      { type: 'tool-call-end', index: 0 },
      { type: 'finish', reason: 'tool-calls' },
    ];
    expect(payloads(encodeGeminiStream(events, context))[0]).toMatchObject({
      candidates: [{ content: { parts: [{ functionCall: { name: 'broken', args: '{"a": tru' } }] } }],
    });
  });
});

describe('encodeGeminiResponse', () => {
  it('joins adjacent texts into one part per kind for :generateContent', () => {
    const events: ModelStreamEvent[] = [
      { type: 'reasoning-delta', text: 'a ' },
      { type: 'reasoning-delta', text: 'b' },
      { type: 'text-delta', text: 'c ' },
      { type: 'text-delta', text: 'd' },
      { type: 'finish', reason: 'stop' },
    ];
    expect(encodeGeminiResponse(events, context)).toMatchObject({
      candidates: [
        {
          content: {
            parts: [
              { text: 'a b', thought: true },
              { text: 'c d', thoughtSignature: scriptedThoughtSignature },
            ],
            role: 'model',
          },
          finishReason: 'STOP',
        },
      ],
    });
  });
});
