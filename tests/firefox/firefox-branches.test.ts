import { describe, expect, it } from 'vitest';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { firefoxSuite } from './firefox-suite';
import { editAndResend, untilPanelShows } from './panel-messages';
import { openPanel, sendFromComposer, until } from './sidebar-page';

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content)
    ? content.map((part: { text?: unknown }) => (typeof part.text === 'string' ? part.text : '')).join('')
    : '';
}

/** The conversation a model request carried, as `role: text` lines (the system prompt left out). */
function conversationOf(body: unknown): string[] {
  return (body as { messages: { role: string; content?: unknown }[] }).messages
    .filter((message) => message.role === 'user' || message.role === 'assistant')
    .map((message) => `${message.role}: ${textOf(message.content)}`);
}

describe('branches in Firefox ESR', () => {
  const suite = firefoxSuite({
    server: () =>
      startScriptedModelServer({
        script: { turns: ['Done: 12.', 'Done: 20.', 'Blue.'].map((text) => ({ steps: [{ text }] })) },
      }),
  });

  it('an edit makes a branch the sidebar page switches, and the next request carries only the branch in view', async () => {
    const { marionette, base, server } = suite;
    await openPanel(marionette, base, server.url);
    const shows = (texts: string[]) => untilPanelShows(marionette, texts);
    await sendFromComposer(marionette, 'Set the speed to 12');
    await shows(['Set the speed to 12', 'Done: 12.']);
    await sendFromComposer(marionette, 'Now 20');
    await shows(['Set the speed to 12', 'Done: 12.', 'Now 20', 'Done: 20.']);

    server.setScript({ turns: ['Done: 12.', 'Done: 25.', 'Blue.'].map((text) => ({ steps: [{ text }] })) });
    await editAndResend(marionette, 1, 'Now 25');
    await shows(['Set the speed to 12', 'Done: 12.', 'Now 25', 'Done: 25.']);
    expect(conversationOf(server.requests.at(-1)!.body)).toEqual([
      'user: Set the speed to 12',
      'assistant: Done: 12.',
      'user: Now 25',
    ]);

    await until('the message switcher', () =>
      marionette.execute<boolean>(
        `const button = document.querySelector('nav[aria-label="Message 2 of 2"] button[aria-label="Previous message"]');
         if (!button) return false;
         button.click();
         return true;`,
      ),
    );
    await shows(['Set the speed to 12', 'Done: 12.', 'Now 20', 'Done: 20.']);
    await sendFromComposer(marionette, 'And make it blue');
    await shows(['Set the speed to 12', 'Done: 12.', 'Now 20', 'Done: 20.', 'And make it blue', 'Blue.']);
    expect(conversationOf(server.requests.at(-1)!.body)).toEqual([
      'user: Set the speed to 12',
      'assistant: Done: 12.',
      'user: Now 20',
      'assistant: Done: 20.',
      'user: And make it blue',
    ]);
  }, 120_000);
});
