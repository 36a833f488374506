import { describe, expect, it } from 'vitest';
import { openAIResponsesMessageRoles } from './openai-responses-message-roles';

describe('openAIResponsesMessageRoles', () => {
  it('counts a run of output items (reasoning, message, calls, references) as one assistant message', () => {
    expect(
      openAIResponsesMessageRoles([
        { role: 'developer', content: 'sys' },
        { role: 'user', content: [{ type: 'input_text', text: 'Go.' }] },
        { type: 'item_reference', id: 'rs_1' },
        { type: 'item_reference', id: 'msg_1' },
        { type: 'function_call', call_id: 'call_a', name: 'a', arguments: '{}' },
        { type: 'function_call', call_id: 'call_b', name: 'b', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_a', output: '{}' },
        { type: 'function_call_output', call_id: 'call_b', output: '{}' },
        { type: 'reasoning', id: 'rs_2', summary: [] },
        { role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] },
      ]),
    ).toEqual([
      { role: 'system' },
      { role: 'user' },
      { role: 'assistant' },
      { role: 'tool' },
      { role: 'tool' },
      { role: 'assistant' },
    ]);
  });

  it('reads a string input as one user message and spots continuations', () => {
    expect(openAIResponsesMessageRoles('Hello')).toEqual([{ role: 'user' }]);
    expect(openAIResponsesMessageRoles([{ type: 'message', role: 'user', content: 'Continue.' }])).toEqual([
      { role: 'user', continuation: true },
    ]);
  });

  it('skips items it cannot read', () => {
    expect(openAIResponsesMessageRoles([42, null, { type: 'unknown_thing' }, { role: 'user', content: 'x' }])).toEqual([
      { role: 'user' },
    ]);
  });
});
