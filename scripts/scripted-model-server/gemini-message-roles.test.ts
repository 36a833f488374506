import { describe, expect, it } from 'vitest';
import { geminiMessageRoles } from './gemini-message-roles';

describe('geminiMessageRoles', () => {
  it('maps model to assistant and functionResponse parts to tool results', () => {
    expect(
      geminiMessageRoles([
        { role: 'user', parts: [{ text: 'Go.' }] },
        {
          role: 'model',
          parts: [{ functionCall: { name: 'a', args: {} } }, { functionCall: { name: 'b', args: {} } }],
        },
        {
          role: 'user',
          parts: [{ functionResponse: { name: 'a', response: {} } }, { functionResponse: { name: 'b', response: {} } }],
        },
        { role: 'model', parts: [{ text: 'Done.' }] },
      ]),
    ).toEqual([{ role: 'user' }, { role: 'assistant' }, { role: 'tool' }, { role: 'assistant' }]);
  });

  it('treats a content without role as user and spots continuations', () => {
    expect(geminiMessageRoles([{ parts: [{ text: 'Hi' }] }, { role: 'user', parts: [{ text: 'Continue.' }] }])).toEqual(
      [{ role: 'user' }, { role: 'user', continuation: true }],
    );
  });
});
