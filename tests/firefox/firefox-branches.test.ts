import { beforeAll, describe, expect, it } from 'vitest';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import type { Script } from '../../scripts/scripted-model-server/script';
import { answering } from '../support/answering';
import { conversationOf } from '../support/conversation-of';
import { SETTING_SPEEDS } from '../support/setting-speeds';
import { firefoxSuite } from './firefox-suite';
import type { Marionette } from './marionette';
import { editAndResend, untilPanelShows } from './panel-messages';
import { openPanel, sendFromComposer, switchToTab, until } from './sidebar-page';

/** The stored events of a conversation, read from IndexedDB in the panel's tab (the runtime's origin). */
function storedEvents(marionette: Marionette, sessionId: string): Promise<{ type: string; data?: unknown }[]> {
  return marionette.execute(
    `const database = await new Promise((resolve, reject) => {
       const request = indexedDB.open('splitbrain');
       request.onsuccess = () => resolve(request.result);
       request.onerror = () => reject(request.error);
     });
     const rows = await new Promise((resolve, reject) => {
       const read = database.transaction('events').objectStore('events').getAll(IDBKeyRange.bound([arguments[0], -Infinity], [arguments[0], Infinity]));
       read.onsuccess = () => resolve(read.result);
       read.onerror = () => reject(read.error);
     });
     database.close();
     return rows.map((row) => ({ type: row.event.type, data: row.event.data }));`,
    [sessionId],
  );
}

async function currentSessionId(marionette: Marionette): Promise<string> {
  return marionette.execute<string>('return (await browser.storage.local.get("lastSessionId")).lastSessionId;');
}

describe('branches in Firefox ESR', () => {
  const suite = firefoxSuite({
    server: () => startScriptedModelServer({ script: answering('Done: 12.', 'Done: 20.', 'Blue.') }),
  });

  beforeAll(async () => {
    await openPanel(suite.marionette, suite.base, suite.server.url);
  });

  /** The panel's tab in front, on a new conversation with this script. */
  async function newChat(script: Script): Promise<void> {
    const { marionette, base, server } = suite;
    server.setScript(script);
    await switchToTab(marionette, `${base}/sidepanel.html`);
    await until('a new chat', () =>
      marionette.execute<boolean>(
        `const button = [...document.querySelectorAll('button')].find((candidate) => candidate.textContent?.includes('New chat'));
         if (!button || button.disabled) return false;
         button.click();
         return document.querySelectorAll('article.turn').length === 0;`,
      ),
    );
  }

  /** The particle field's values inside its sandboxed frame in the stage, once `ready` says they are as wanted. */
  async function frameValues(ready: string): Promise<Record<string, unknown>> {
    const { marionette, base } = suite;
    await switchToTab(marionette, `${base}/stage.html`);
    await marionette.send('WebDriver:SwitchToFrame', { id: 0 });
    const state = await until(`the particle field to have ${ready}`, () =>
      marionette.execute<Record<string, unknown> | false>(
        `const state = window.SplitbrainBridge?.currentState(); return state && (${ready}) ? state : false;`,
      ),
    );
    await switchToTab(marionette, `${base}/sidepanel.html`);
    return state;
  }

  it('an edit makes a branch the sidebar page switches, and the next request carries only the branch in view', async () => {
    const { marionette, server } = suite;
    const shows = (texts: string[]) => untilPanelShows(marionette, texts);
    await sendFromComposer(marionette, 'Set the speed to 12');
    await shows(['Set the speed to 12', 'Done: 12.']);
    await sendFromComposer(marionette, 'Now 20');
    await shows(['Set the speed to 12', 'Done: 12.', 'Now 20', 'Done: 20.']);

    server.setScript(answering('Done: 12.', 'Done: 25.', 'Blue.'));
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

  it('rewinds with target values: the particle field in the stage frame gets the values of then, and the next request carries only the rewound branch', async () => {
    const { marionette, base, server } = suite;
    const shows = (texts: string[]) => untilPanelShows(marionette, texts);
    await newChat(SETTING_SPEEDS);
    await sendFromComposer(marionette, 'Set the speed to 12');
    await shows(['Set the speed to 12', 'Speed 12.']);
    expect(await frameValues('state.speed === 12')).toMatchObject({ speed: 12, show_vectors: false });
    await sendFromComposer(marionette, 'Now 30 with vectors');
    await shows(['Set the speed to 12', 'Speed 12.', 'Now 30 with vectors', 'Speed 30, vectors on.']);
    expect(await frameValues('state.speed === 30')).toMatchObject({ speed: 30, show_vectors: true });

    // Rewind to the second message with the target values: the confirmation names what it puts back.
    await until('the rewind confirmation', () =>
      marionette.execute<boolean>(
        `document.querySelectorAll('article.turn')[1]?.querySelector('button[aria-label="Rewind to this message"]')?.click();
         const values = document.querySelector('dialog.rewind-dialog input[value="values"]');
         if (!values) return false;
         values.click();
         return true;`,
      ),
    );
    const restored = await until('the values it restores', () =>
      marionette.execute<string | false>(
        `const section = document.querySelector('dialog.rewind-dialog section[aria-label="Target values restored"]');
         return section ? section.textContent : false;`,
      ),
    );
    expect(restored).toContain('particles: speed = 12, show_vectors = false');
    await marionette.execute(
      "document.querySelector('dialog.rewind-dialog button.button-primary').click(); return true;",
    );

    // The frame has the values of then; the view ends before the rewound message, which stays in the log.
    expect(await frameValues('state.speed === 12 && state.show_vectors === false')).toMatchObject({
      speed: 12,
      show_vectors: false,
    });
    await shows(['Set the speed to 12', 'Speed 12.']);
    await until('the rewound notice', () =>
      marionette.execute<boolean>("return Boolean(document.querySelector('.rewound-notice'));"),
    );
    const sessionId = await currentSessionId(marionette);
    const events = await until('the rewind to be completed in the log', async () => {
      const stored = await storedEvents(marionette, sessionId);
      return stored.some((event) => event.type === 'rewind/completed') ? stored : false;
    });
    expect(events.filter((event) => event.type === 'rewind/applied').map((event) => event.data)).toMatchObject([
      { mode: 'values', values: [{ targetId: 'particles', values: { speed: 12, show_vectors: false } }] },
    ]);
    expect(events.filter((event) => event.type === 'rewind/completed').map((event) => event.data)).toMatchObject([
      { reloaded: [], applied: ['particles'], saved: [] },
    ]);

    // The next message is a sibling of the rewound one: the model is sent the first turn and it, never "Now 30".
    server.setScript({ turns: [SETTING_SPEEDS.turns[0]!, { steps: [{ text: 'Blue it is.' }] }] });
    server.clearRequests();
    await switchToTab(marionette, `${base}/sidepanel.html`);
    await sendFromComposer(marionette, 'Make it blue instead');
    await shows(['Set the speed to 12', 'Speed 12.', 'Make it blue instead', 'Blue it is.']);
    expect(server.requests).toHaveLength(1);
    const sent = conversationOf(server.requests[0]!.body);
    expect(sent.filter((line) => line.startsWith('user: '))).toEqual([
      'user: Set the speed to 12',
      'user: Make it blue instead',
    ]);
    expect(JSON.stringify(server.requests[0]!.body)).not.toContain('Now 30');
  }, 120_000);

  it('a fork opens as a new conversation with the history up to the message, and its next request carries only that', async () => {
    const { marionette, server } = suite;
    const shows = (texts: string[]) => untilPanelShows(marionette, texts);
    await newChat(answering('Done: 12.', 'Done: 20.'));
    await sendFromComposer(marionette, 'Set the speed to 12');
    await shows(['Set the speed to 12', 'Done: 12.']);
    await sendFromComposer(marionette, 'Now 20');
    await shows(['Set the speed to 12', 'Done: 12.', 'Now 20', 'Done: 20.']);
    const original = await currentSessionId(marionette);

    await marionette.execute(
      `document.querySelectorAll('article.turn')[0].querySelector('button[aria-label="Fork from here"]').click(); return true;`,
    );
    const fork = await until('the fork to open', async () => {
      const shown = await currentSessionId(marionette);
      return shown !== original ? shown : false;
    });
    await shows(['Set the speed to 12', 'Done: 12.']);
    const forkEvents = await storedEvents(marionette, fork);
    expect(forkEvents[0]).toMatchObject({ type: 'session/created', data: { forkOf: { sessionId: original } } });
    expect(forkEvents.filter((event) => event.type === 'turn/started')).toHaveLength(1);
    // The original keeps both messages.
    expect((await storedEvents(marionette, original)).filter((event) => event.type === 'turn/started')).toHaveLength(2);

    server.setScript(answering('Done: 12.', 'Blue.'));
    server.clearRequests();
    await sendFromComposer(marionette, 'And make it blue');
    await shows(['Set the speed to 12', 'Done: 12.', 'And make it blue', 'Blue.']);
    expect(server.requests).toHaveLength(1);
    expect(conversationOf(server.requests[0]!.body)).toEqual([
      'user: Set the speed to 12',
      'assistant: Done: 12.',
      'user: And make it blue',
    ]);
  }, 120_000);
});
