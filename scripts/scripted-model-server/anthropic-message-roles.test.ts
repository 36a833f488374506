import { describe, expect, it } from 'vitest';
import { anthropicMessageRoles } from './anthropic-message-roles';

describe('anthropicMessageRoles', () => {
  it('reads tool_result blocks in user messages as tool results, not as new turns', () => {
    expect(
      anthropicMessageRoles([
        { role: 'user', content: 'Go.' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'a', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '{}' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
      ]),
    ).toEqual([{ role: 'user' }, { role: 'assistant' }, { role: 'tool' }, { role: 'assistant' }]);
  });

  it('splits a merged tool result and user text into tool then user, and spots continuations', () => {
    expect(
      anthropicMessageRoles([
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: '{}' },
            { type: 'text', text: 'Also this.' },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'Continue.' }] },
      ]),
    ).toEqual([{ role: 'tool' }, { role: 'user' }, { role: 'user', continuation: true }]);
  });
});
