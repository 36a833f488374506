import { describe, expect, it } from 'vitest';
import { uiMessageRoles } from './ui-message-roles';

describe('uiMessageRoles', () => {
  it('counts the step-start parts of an assistant message as its steps', () => {
    expect(
      uiMessageRoles([
        { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Go.' }] },
        {
          id: 'a1',
          role: 'assistant',
          parts: [
            { type: 'step-start' },
            { type: 'tool-getParameters', toolCallId: 'call_0_0_0', state: 'output-available', input: {}, output: {} },
            { type: 'step-start' },
            { type: 'tool-setParameters', toolCallId: 'call_0_1_0', state: 'output-available', input: {}, output: {} },
          ],
        },
      ]),
    ).toEqual([{ role: 'user' }, { role: 'assistant' }, { role: 'assistant' }]);
  });

  it('counts an assistant message without step-start parts as one step, and an empty one as none', () => {
    expect(
      uiMessageRoles([
        {
          role: 'assistant',
          parts: [
            { type: 'text', text: 'a' },
            { type: 'tool-x', state: 'output-available' },
          ],
        },
        { role: 'assistant', parts: [] },
      ]),
    ).toEqual([{ role: 'assistant' }]);
  });

  it('spots continuations by metadata or by the exact text "Continue."', () => {
    expect(
      uiMessageRoles([
        { role: 'user', metadata: { continuation: true }, parts: [{ type: 'text', text: 'Please go on' }] },
        { role: 'user', parts: [{ type: 'text', text: 'Continue.' }] },
        { role: 'user', metadata: { continuation: false }, parts: [{ type: 'text', text: 'Continue please' }] },
      ]),
    ).toEqual([{ role: 'user', continuation: true }, { role: 'user', continuation: true }, { role: 'user' }]);
  });
});
