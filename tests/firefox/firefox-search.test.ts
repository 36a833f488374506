import { describe, expect, it } from 'vitest';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { answering } from '../support/answering';
import { firefoxSuite } from './firefox-suite';
import { editAndResend, untilPanelShows } from './panel-messages';
import { openPanel, sendFromComposer, until } from './sidebar-page';

const FIRST_VERSION = 'Where is the lighthouse ledger kept?';

describe('search in Firefox ESR', () => {
  const suite = firefoxSuite({ server: () => startScriptedModelServer({ script: answering('In the tower.') }) });

  it('finds a message of another conversation, on a branch not in view, and opens it on that branch', async () => {
    const { marionette, base, server } = suite;
    await openPanel(marionette, base, server.url);
    const shows = (texts: string[]) => untilPanelShows(marionette, texts);
    await sendFromComposer(marionette, FIRST_VERSION);
    await shows([FIRST_VERSION, 'In the tower.']);
    // The message is edited: the first version goes to a branch not in view. The scripted model answers by the
    // number of user messages it is sent, so each first message gets its answer from a script of its own.
    server.setScript(answering('At the quay.'));
    await editAndResend(marionette, 0, 'Where is the harbour master?');
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
