import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { launchFirefox, type FirefoxSession } from './marionette';
import { installBuild, openExtensionTab, sendFromComposer, until, useScriptedEndpoint } from './sidebar-page';

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

const SHOWN =
  "return JSON.stringify([...document.querySelectorAll('article.turn .user-message, article.turn .assistant-message')].map((node) => node.textContent.trim())) + (document.querySelector('article.turn[data-status=\"running\"]') ? ' running' : '');";

describe('branches in Firefox ESR', () => {
  let server: ScriptedModelServer;
  let firefox: FirefoxSession;
  let base: string;

  beforeAll(async () => {
    server = await startScriptedModelServer({
      script: { turns: ['Done: 12.', 'Done: 20.', 'Blue.'].map((text) => ({ steps: [{ text }] })) },
    });
    firefox = await launchFirefox();
    base = await installBuild(firefox.marionette);
  }, 120_000);

  afterAll(async () => {
    await firefox?.close();
    await server?.close();
  });

  it('an edit makes a branch the sidebar page switches, and the next request carries only the branch in view', async () => {
    const marionette = firefox.marionette;
    await openExtensionTab(marionette, `${base}/sidepanel.html`);
    await useScriptedEndpoint(marionette, server.url);
    const shows = (texts: string[]) =>
      until(
        `the panel to show ${texts.join(' / ')}`,
        async () => (await marionette.execute<string>(SHOWN)) === JSON.stringify(texts),
      );
    await until('the composer', () =>
      marionette.execute<boolean>('return Boolean(document.querySelector(\'textarea[aria-label="Message"]\'));'),
    );
    await sendFromComposer(marionette, 'Set the speed to 12');
    await shows(['Set the speed to 12', 'Done: 12.']);
    await sendFromComposer(marionette, 'Now 20');
    await shows(['Set the speed to 12', 'Done: 12.', 'Now 20', 'Done: 20.']);

    server.setScript({ turns: ['Done: 12.', 'Done: 25.', 'Blue.'].map((text) => ({ steps: [{ text }] })) });
    await until('the edit box', () =>
      marionette.execute<boolean>(
        `const button = document.querySelectorAll('article.turn')[1]?.querySelector('button[aria-label="Edit and resend"]');
         if (!button) return false;
         button.click();
         return true;`,
      ),
    );
    await until('the edited text to be resent', () =>
      marionette.execute<boolean>(
        `const box = document.querySelector('textarea[aria-label="Edit message"]');
         if (!box) return false;
         Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set.call(box, 'Now 25');
         box.dispatchEvent(new Event('input', { bubbles: true }));
         const resend = [...document.querySelectorAll('.user-edit button')].find((button) => button.textContent === 'Resend');
         if (!resend || resend.disabled) return false;
         resend.click();
         return true;`,
      ),
    );
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
