import { describe, expect, it } from 'vitest';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { firefoxSuite } from './firefox-suite';
import { OTHER_REMOTE_TEST_HOST, REMOTE_TEST_HOST, type Marionette } from './marionette';
import { firstTurnEnd, openExtensionTab, openPanel, sendFromComposer, switchToTab, until } from './sidebar-page';

interface ChatRequestBody {
  messages: { role: string; content?: unknown }[];
}

/** Adds an endpoint in the options page and saves it, as a user would; Firefox may then ask for its host. */
async function saveEndpoint(marionette: Marionette, baseUrl: string, name: string): Promise<void> {
  await marionette.click("//button[contains(., 'Add endpoint')]", 'xpath');
  await marionette.type('[aria-label="Base URL"]', baseUrl);
  await marionette.type('[aria-label="Model"]', 'scripted-model');
  await marionette.type('[aria-label="Name"]', name);
  await marionette.click('button[type="submit"]');
}

/** Answers Firefox's permission prompt and returns what it asked. */
async function answerPermissionPrompt(marionette: Marionette, answer: 'allow' | 'deny'): Promise<string> {
  await marionette.send('Marionette:SetContext', { value: 'chrome' });
  const asked = await until('the permission prompt', () =>
    marionette.execute<string | false>(
      "const notification = PopupNotifications.panel.querySelector('popupnotification'); return notification ? notification.getAttribute('popupid') + ': ' + notification.textContent : false;",
    ),
  );
  await marionette.execute(
    `const notification = PopupNotifications.panel.querySelector('popupnotification'); (arguments[0] === 'allow' ? notification.button : notification.secondaryButton).click(); return true;`,
    [answer],
  );
  return asked;
}

async function saveStatus(marionette: Marionette): Promise<string> {
  return until('the save to finish', () =>
    marionette.execute<string | false>(
      "const text = document.querySelector('.endpoint-editor .status')?.textContent ?? ''; return text.startsWith('Saved.') ? text : false;",
    ),
  );
}

describe('the split-brain loop in Firefox ESR', () => {
  const suite = firefoxSuite({
    server: () =>
      startScriptedModelServer({
        script: {
          turns: [
            {
              steps: [
                { toolCalls: [{ name: 'openTarget', arguments: { targetId: 'particles' } }] },
                { toolCalls: [{ name: 'setParameter', arguments: { param: 'speed', value: 12 } }] },
                { text: 'The particles now move at 12 m/s.' },
              ],
            },
          ],
        },
      }),
  });

  it('runs a turn from the sidebar page: the model opens the particle field, sets its speed inside the sandboxed frame and gets the result back', async () => {
    const { marionette, base, server } = suite;
    await openPanel(marionette, base, server.url);
    await sendFromComposer(marionette, 'Make the particles faster, 12 m/s.');
    const status = await firstTurnEnd(marionette);
    // textContent: the stage tab took the focus, and a background tab skips rendering `content-visibility: auto` text.
    const panelText = await marionette.execute<string>(
      "return document.querySelector('article.turn')?.textContent ?? '';",
    );
    expect(status, panelText).toBe('completed');
    expect(panelText).toContain('The particles now move at 12 m/s.');
    const cards = await marionette.execute<string[]>(
      "return [...document.querySelectorAll('section.tool-card')].map((card) => card.getAttribute('aria-label') + ':' + card.getAttribute('data-status'));",
    );
    expect(cards).toEqual(['Tool call openTarget:done', 'Tool call setParameter:done']);

    // The model was sent the applied value as the tool's result.
    const lastRequest = JSON.stringify(
      (server.requests.at(-1)!.body as ChatRequestBody).messages.filter((message) => message.role === 'tool'),
    );
    expect(lastRequest).toContain('\\"speed\\":12');

    // The value inside the sandboxed target frame, read in the stage tab the runtime opened.
    await switchToTab(marionette, `${base}/stage.html`);
    const sandbox = await marionette.execute<string | null>(
      "return document.querySelector('iframe')?.getAttribute('sandbox') ?? null;",
    );
    expect(sandbox).toBe('allow-scripts');
    await marionette.send('WebDriver:SwitchToFrame', { id: 0 });
    const inside = await until('the target to report speed 12', () =>
      marionette.execute<{ speed: number; applyCount: number } | false>(
        'const bridge = window.SplitbrainBridge; const state = bridge?.currentState(); return state?.speed === 12 ? { speed: state.speed, applyCount: bridge.debug.applyCount } : false;',
      ),
    );
    expect(inside.speed).toBe(12);
    expect(inside.applyCount).toBeGreaterThanOrEqual(1);
    // The frame is sandboxed without allow-same-origin: its origin is opaque.
    expect(await marionette.execute<string>('return window.origin;')).toBe('null');
  }, 120_000);

  it("the toolbar popup shows the active target's form with the value the model set, and a value typed there is applied inside the frame", async () => {
    const { marionette, base } = suite;
    await openExtensionTab(marionette, `${base}/popup.html`);
    await until('the particle field form', () =>
      marionette.execute<boolean>(
        "return document.querySelector('#parameter-form-title')?.textContent?.includes('Particle field') ?? false;",
      ),
    );
    await until('speed 12 in the form', () =>
      marionette.execute<boolean>('return document.querySelector(\'input[aria-label="speed"]\')?.value === "12";'),
    );
    await marionette.type('input[aria-label="speed"]', '20\uE007');
    const result = await until('the applied value', () =>
      marionette.execute<string | false>(
        "const line = document.querySelector('.parameter-field[data-parameter=\"speed\"] .field-result')?.textContent ?? ''; return line.startsWith('Applied') ? line : false;",
      ),
    );
    expect(result).toBe('Applied: 20 m/s.');
    await switchToTab(marionette, `${base}/stage.html`);
    await marionette.send('WebDriver:SwitchToFrame', { id: 0 });
    expect(
      await until('speed 20 inside the frame', () =>
        marionette.execute<number | false>(
          'const speed = window.SplitbrainBridge?.currentState()?.speed; return speed === 20 ? speed : false;',
        ),
      ),
    ).toBe(20);
  }, 120_000);

  it('saving an endpoint on another host asks Firefox for that host; once allowed, the panel talks to it', async () => {
    const { marionette, base, server } = suite;
    await openExtensionTab(marionette, `${base}/options.html`);
    await until('the endpoint list', () =>
      marionette.execute<boolean>('return Boolean(document.querySelector(\'ul[aria-label="Saved endpoints"]\'));'),
    );
    const remoteUrl = `http://${REMOTE_TEST_HOST}:${server.port}/v1`;
    await saveEndpoint(marionette, remoteUrl, 'Remote scripted model');
    const asked = await answerPermissionPrompt(marionette, 'allow');
    console.log(`[firefox] prompt: ${asked}`);
    expect(asked).toContain(`${REMOTE_TEST_HOST}:${server.port}`);
    await switchToTab(marionette, `${base}/options.html`);
    const status = await saveStatus(marionette);
    expect(status).toBe('Saved.');
    expect(
      await marionette.execute<boolean>('return browser.permissions.contains({ origins: [arguments[0]] });', [
        `${new URL(remoteUrl).origin}/*`,
      ]),
    ).toBe(true);

    server.setScript({ turns: [{ steps: [{ text: 'Hello from the other host.' }] }] });
    server.clearRequests();
    await switchToTab(marionette, `${base}/sidepanel.html`);
    await marionette.send('WebDriver:Refresh');
    await until('the new chat button', () =>
      marionette.execute<boolean>(
        "const button = [...document.querySelectorAll('button')].find((candidate) => candidate.textContent?.includes('New chat')); if (!button) return false; button.click(); return true;",
      ),
    );
    await marionette.type('textarea[aria-label="Message"]', 'Hello?');
    await marionette.click('button[type="submit"]');
    const reply = await until('the reply', () =>
      marionette.execute<string | false>(
        "const turn = document.querySelector('article.turn'); return turn?.getAttribute('data-status') === 'completed' ? turn.textContent : false;",
      ),
    );
    expect(reply).toContain('Hello from the other host.');
    expect(server.requests.some((request) => request.headers.host === `${REMOTE_TEST_HOST}:${server.port}`)).toBe(true);
  }, 120_000);

  it('a refused host is saved with a note that says so, and no permission is held', async () => {
    const { marionette, base, server } = suite;
    await switchToTab(marionette, `${base}/options.html`);
    const otherOrigin = `http://${OTHER_REMOTE_TEST_HOST}:${server.port}`;
    await saveEndpoint(marionette, `${otherOrigin}/v1`, 'Refused host');
    expect(await answerPermissionPrompt(marionette, 'deny')).toContain(OTHER_REMOTE_TEST_HOST);
    await switchToTab(marionette, `${base}/options.html`);
    expect(await saveStatus(marionette)).toBe(
      `Saved. Access to ${otherOrigin} was not granted; requests work only if that server allows cross-origin calls.`,
    );
    expect(
      await marionette.execute<boolean>('return browser.permissions.contains({ origins: [arguments[0]] });', [
        `${otherOrigin}/*`,
      ]),
    ).toBe(false);
  }, 120_000);
});
