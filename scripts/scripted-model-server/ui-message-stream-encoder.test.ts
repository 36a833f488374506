import { describe, expect, it } from 'vitest';
import type { ModelStreamEvent } from './model-stream-event';
import { encodeUIMessageStream } from './ui-message-stream-encoder';

const parse = (frames: string[]): unknown[] =>
  frames
    .map((frame) => frame.replace(/^data: /, '').trim())
    .map((data) => (data === '[DONE]' ? data : (JSON.parse(data) as unknown)));

describe('encodeUIMessageStream', () => {
  it('writes one step of reasoning, text and a tool call the way toUIMessageStreamResponse does', () => {
    const events: ModelStreamEvent[] = [
      { type: 'reasoning-delta', text: 'Hmm.' },
      { type: 'text-delta', text: 'On it.' },
      { type: 'tool-call-start', index: 0, id: 'call_0_0_0', name: 'setParameters' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '1}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'finish', reason: 'tool-calls' },
    ];
    expect(parse(encodeUIMessageStream(events, { messageId: 'msg-1' }))).toEqual([
      { type: 'start', messageId: 'msg-1' },
      { type: 'start-step' },
      { type: 'reasoning-start', id: 'reasoning-0' },
      { type: 'reasoning-delta', id: 'reasoning-0', delta: 'Hmm.' },
      { type: 'reasoning-end', id: 'reasoning-0' },
      { type: 'text-start', id: 'text-1' },
      { type: 'text-delta', id: 'text-1', delta: 'On it.' },
      { type: 'text-end', id: 'text-1' },
      { type: 'tool-input-start', toolCallId: 'call_0_0_0', toolName: 'setParameters' },
      { type: 'tool-input-delta', toolCallId: 'call_0_0_0', inputTextDelta: '{"a":' },
      { type: 'tool-input-delta', toolCallId: 'call_0_0_0', inputTextDelta: '1}' },
      { type: 'tool-input-available', toolCallId: 'call_0_0_0', toolName: 'setParameters', input: { a: 1 } },
      { type: 'finish-step' },
      { type: 'finish', finishReason: 'tool-calls' },
      '[DONE]',
    ]);
  });

  it('reports arguments that are not JSON as tool-input-error with the raw text', () => {
    const events: ModelStreamEvent[] = [
      { type: 'tool-call-start', index: 0, id: 'call_x', name: 'broken' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a": tru' },
      { type: 'tool-call-end', index: 0 },
      { type: 'finish', reason: 'tool-calls' },
    ];
    expect(parse(encodeUIMessageStream(events, { messageId: 'm' }))).toContainEqual({
      type: 'tool-input-error',
      toolCallId: 'call_x',
      toolName: 'broken',
      input: '{"a": tru',
      errorText: 'Invalid input for tool broken: JSON parsing failed: Text: {"a": tru.',
    });
  });

  it('stops after the last delta, without end parts or [DONE], when the events have no finish', () => {
    expect(parse(encodeUIMessageStream([{ type: 'text-delta', text: 'half' }], { messageId: 'm' }))).toEqual([
      { type: 'start', messageId: 'm' },
      { type: 'start-step' },
      { type: 'text-start', id: 'text-0' },
      { type: 'text-delta', id: 'text-0', delta: 'half' },
    ]);
  });
});
