import { describe, expect, it } from 'vitest';
import { openAIChatMessageRoles } from './openai-chat-message-roles';

describe('openAIChatMessageRoles', () => {
  it('keeps the roles and marks a user "Continue." as a continuation, in string or part form', () => {
    expect(
      openAIChatMessageRoles([
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'Go.' },
        { role: 'assistant', content: 'Half' },
        { role: 'user', content: 'Continue.' },
        { role: 'user', content: [{ type: 'text', text: 'Continue.' }] },
        { role: 'tool', content: '{}' },
      ]),
    ).toEqual([
      { role: 'system' },
      { role: 'user' },
      { role: 'assistant' },
      { role: 'user', continuation: true },
      { role: 'user', continuation: true },
      { role: 'tool' },
    ]);
  });
});
