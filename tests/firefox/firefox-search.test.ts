import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import type { Script } from '../../scripts/scripted-model-server/script';
import { launchFirefox, type FirefoxSession } from './marionette';
import { installBuild, openExtensionTab, sendFromComposer, until, useScriptedEndpoint } from './sidebar-page';

const SHOWN =
  "return JSON.stringify([...document.querySelectorAll('article.turn .user-message, article.turn .assistant-message')].map((node) => node.textContent.trim()));";
function answering(text: string): Script {
  return { turns: [{ steps: [{ text }] }] };
}

const FIRST_VERSION = 'Where is the lighthouse ledger kept?';

describe('search in Firefox ESR', () => {
  let server: ScriptedModelServer;
  let firefox: FirefoxSession;
  let base: string;

  beforeAll(async () => {
    server = await startScriptedModelServer({
      script: answering('In the tower.'),
    });
    firefox = await launchFirefox();
    base = await installBuild(firefox.marionette);
  }, 120_000);

  afterAll(async () => {
    await firefox?.close();
    await server?.close();
  });

  it('finds a message of another conversation, on a branch not in view, and opens it on that branch', async () => {
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
    await sendFromComposer(marionette, FIRST_VERSION);
    await shows([FIRST_VERSION, 'In the tower.']);
    // The message is edited: the first version goes to a branch not in view. The scripted model answers by the
    // number of user messages it is sent, so each first message gets its answer from a script of its own.
    server.setScript(answering('At the quay.'));
    await until('the edit box', () =>
      marionette.execute<boolean>(
        `const button = document.querySelector('article.turn button[aria-label="Edit and resend"]');
         if (!button) return false;
         button.click();
         return true;`,
      ),
    );
    await until('the edited text to be resent', () =>
      marionette.execute<boolean>(
        `const box = document.querySelector('textarea[aria-label="Edit message"]');
         if (!box) return false;
         Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set.call(box, 'Where is the harbour master?');
         box.dispatchEvent(new Event('input', { bubbles: true }));
         const resend = [...document.querySelectorAll('.user-edit button')].find((button) => button.textContent === 'Resend');
         if (!resend || resend.disabled) return false;
         resend.click();
         return true;`,
      ),
    );
    await shows(['Where is the harbour master?', 'At the quay.']);
    await until('the new-chat button', () =>
      marionette.execute<boolean>(
        `const button = document.querySelector('button.new-chat');
         if (!button || button.disabled) return false;
         button.click();
         return true;`,
      ),
    );
    await shows([]);
    server.setScript(answering('High tide at six.'));
    await sendFromComposer(marionette, 'When is high tide?');
    await shows(['When is high tide?', 'High tide at six.']);

    await marionette.execute('document.querySelector(\'button[aria-label="Sessions"]\').click(); return true;');
    await until('the search box', () =>
      marionette.execute<boolean>(
        `const box = document.querySelector('input[aria-label="Search conversations"]');
         if (!box) return false;
         Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(box, 'lighthouse ledg');
         box.dispatchEvent(new Event('input', { bubbles: true }));
         return true;`,
      ),
    );
    // The conversation is named after its first message, so its title is found too; the message is the hit to open.
    const hits = await until('the search hits', () =>
      marionette.execute<string | false>(
        `const hits = [...document.querySelectorAll('.search-hit')];
         if (hits.length < 2) return false;
         return JSON.stringify(hits.map((hit) => ({
           kind: hit.querySelector('.search-hit-kind')?.textContent,
           snippet: hit.querySelector('.search-hit-snippet')?.textContent,
           marked: [...hit.querySelectorAll('mark')].map((mark) => mark.textContent),
         })));`,
      ),
    );
    const shownHits = JSON.parse(hits) as { kind: string }[];
    expect(shownHits.map((hit) => hit.kind).sort()).toEqual(['Title', 'You']);
    expect(shownHits.find((hit) => hit.kind === 'You')).toEqual({
      kind: 'You',
      snippet: FIRST_VERSION,
      marked: ['lighthouse', 'ledger'],
    });

    await marionette.execute(
      "[...document.querySelectorAll('.search-hit')].find((hit) => hit.querySelector('.search-hit-kind')?.textContent === 'You').click(); return true;",
    );
    await shows([FIRST_VERSION, 'In the tower.']);
    const found = await until('the found message marked', () =>
      marionette.execute<string | false>(
        "return document.querySelector('.virtual-row[data-found]:not([data-off-branch]) .user-message')?.textContent.trim() ?? false;",
      ),
    );
    expect(found).toBe(FIRST_VERSION);
  }, 180_000);
});
