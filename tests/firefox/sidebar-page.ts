import { resolve } from 'node:path';
import type { Marionette } from './marionette';

const FIREFOX_BUILD = resolve(import.meta.dirname, '../../.output/firefox-mv2');
const WAIT_MS = 30_000;

/** Polls `probe` until it gives something other than undefined or false. */
export async function until<T>(what: string, probe: () => Promise<T | undefined | false>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((done) => setTimeout(done, 200));
  }
}

/** Installs the Firefox build as a temporary add-on and returns its `moz-extension://` origin. */
export async function installBuild(marionette: Marionette): Promise<string> {
  const { value: addonId } = await marionette.send<{ value: string }>('Addon:Install', {
    path: FIREFOX_BUILD,
    temporary: true,
  });
  await marionette.send('Marionette:SetContext', { value: 'chrome' });
  return `moz-extension://${await marionette.execute<string>('return WebExtensionPolicy.getByID(arguments[0]).mozExtensionHostname;', [addonId])}`;
}

/**
 * Switches to the tab whose address starts with `prefix` (content context) and selects it. The other tabs are only
 * looked at, not selected: selecting each on the way would make it the active tab for a moment, and a page tool
 * that runs meanwhile would rightly act on that tab instead.
 */
export async function switchToTab(marionette: Marionette, prefix: string): Promise<void> {
  await marionette.send('Marionette:SetContext', { value: 'content' });
  const handle = await until(`a tab at ${prefix}`, async () => {
    for (const handle of await marionette.send<string[]>('WebDriver:GetWindowHandles')) {
      await marionette.send('WebDriver:SwitchToWindow', { handle, focus: false });
      const { value } = await marionette.send<{ value: string }>('WebDriver:GetCurrentURL');
      if (value.startsWith(prefix)) return handle;
    }
    return false;
  });
  await marionette.send('WebDriver:SwitchToWindow', { handle, focus: true });
}

/** Opens a page in a new tab and selects it, from the chrome context: only it may load moz-extension:// addresses. */
export async function openExtensionTab(marionette: Marionette, url: string): Promise<void> {
  await marionette.send('Marionette:SetContext', { value: 'chrome' });
  await marionette.execute(
    'gBrowser.selectedTab = gBrowser.addTab(arguments[0], { triggeringPrincipal: Services.scriptSecurityManager.getSystemPrincipal() }); return true;',
    [url],
  );
  await switchToTab(marionette, url);
}

/** Points the extension at the scripted model server (the single-endpoint key) and reloads the page. */
export async function useScriptedEndpoint(
  marionette: Marionette,
  baseUrl: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await marionette.execute(
    `await browser.storage.local.set({ endpoint: { kind: 'openai-compatible', label: 'Scripted test model', baseUrl: arguments[0], model: 'scripted-model', apiKey: '', scripted: true, ...arguments[1] } });
     return true;`,
    [baseUrl, extra],
  );
  await marionette.send('WebDriver:Refresh');
}

/** Opens a web page in a new tab and selects it (the page tools act on that window's latest web page); waits until it has loaded. */
export async function openPageTab(marionette: Marionette, url: string): Promise<void> {
  await openExtensionTab(marionette, url);
  await until(`the page at ${url}`, () => marionette.execute<boolean>("return document.readyState === 'complete';"));
}

/**
 * Opens the sidebar page in a tab, on the scripted model server, and waits until its page line names the web page
 * that was active before it (titled `pageTitle`); returns the sidebar page's address.
 */
export async function openPanelBesidePage(
  marionette: Marionette,
  base: string,
  modelUrl: string,
  pageTitle: string,
): Promise<string> {
  const panelUrl = `${base}/sidepanel.html`;
  await openExtensionTab(marionette, panelUrl);
  await useScriptedEndpoint(marionette, modelUrl);
  await untilPageLineNames(marionette, pageTitle);
  return panelUrl;
}

/** Waits until the sidebar page's page line names the web page titled `pageTitle`. */
export function untilPageLineNames(marionette: Marionette, pageTitle: string): Promise<true> {
  return until(`the page line to name ${pageTitle}`, () =>
    marionette.execute<boolean>("return document.querySelector('.page-line-title')?.textContent === arguments[0];", [
      pageTitle,
    ]),
  );
}

/**
 * Opens the sidebar page in a tab, on the scripted model server (with `extra` endpoint settings), and waits until its
 * composer takes a message.
 */
export async function openPanel(
  marionette: Marionette,
  base: string,
  modelUrl: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await openExtensionTab(marionette, `${base}/sidepanel.html`);
  await useScriptedEndpoint(marionette, modelUrl, extra);
  await until('the composer', () =>
    marionette.execute<boolean>(
      'const area = document.querySelector(\'textarea[aria-label="Message"]\'); return Boolean(area) && !area.disabled;',
    ),
  );
}

/** Types a message into the panel's composer, as React sees input, and sends it once the button allows. */
export async function sendFromComposer(marionette: Marionette, text: string): Promise<void> {
  await marionette.execute(
    `const area = document.querySelector('textarea[aria-label="Message"]');
     Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set.call(area, arguments[0]);
     area.dispatchEvent(new Event('input', { bubbles: true }));
     return true;`,
    [text],
  );
  await until('the send button', () =>
    marionette.execute<boolean>(
      'const button = document.querySelector(\'button[type="submit"]\'); if (!button || button.disabled) return false; button.click(); return true;',
    ),
  );
}

/** Waits until the panel's first turn has ended and returns its status. */
export function firstTurnEnd(marionette: Marionette): Promise<string> {
  return until('the turn to end', () =>
    marionette.execute<string | false>(
      "const turn = document.querySelector('article.turn'); const status = turn?.getAttribute('data-status'); return status && status !== 'running' ? status : false;",
    ),
  );
}

/** Answers Firefox's permission prompt with Allow and returns what it asked. */
export async function allowPermissionPrompt(marionette: Marionette): Promise<string> {
  await marionette.send('Marionette:SetContext', { value: 'chrome' });
  const asked = await until('the permission prompt', () =>
    marionette.execute<string | false>(
      "const notification = PopupNotifications.panel.querySelector('popupnotification'); return notification ? notification.getAttribute('popupid') + ': ' + notification.textContent : false;",
    ),
  );
  await marionette.execute("PopupNotifications.panel.querySelector('popupnotification').button.click(); return true;");
  return asked;
}

export async function turnCount(marionette: Marionette): Promise<number> {
  return marionette.execute<number>("return document.querySelectorAll('article.turn').length;");
}

/**
 * Answers every approval card of the panel's turn after the first `turnsBefore` (until it shows, the last turn is an
 * older one) with Allow, and Firefox's permission prompt after a site-access card, until the turn ends; returns the
 * cards' summaries.
 */
export async function answerApprovals(
  marionette: Marionette,
  panelUrl: string,
  turnsBefore: number,
): Promise<string[]> {
  const asked: string[] = [];
  for (;;) {
    const state = await until('an approval card or the end of the turn', () =>
      marionette.execute<{ card?: string; id?: string; status?: string } | false>(
        `const turns = [...document.querySelectorAll('article.turn')];
         if (turns.length <= arguments[0]) return false;
         const turn = turns.at(-1);
         const card = turn && [...turn.querySelectorAll('section.approval-card[data-status="pending"]')].at(-1);
         if (card) return { card: card.querySelector('.request-summary')?.textContent ?? '', id: card.getAttribute('data-request-id') };
         const status = turn?.getAttribute('data-status');
         return status && status !== 'running' ? { status } : false;`,
        [turnsBefore],
      ),
    );
    if (state.status) break;
    asked.push(state.card ?? '');
    // The panel's tab in front for the trusted click: a tab the agent opened may have come in front of it.
    await switchToTab(marionette, panelUrl);
    // A trusted click: the site-access card's Allow is the gesture Firefox needs to ask for the host permission.
    await marionette.click(`//section[@data-request-id="${state.id}"]//button[text()="Allow"]`, 'xpath');
    if (state.card?.startsWith('Let Splitbrain read and act on')) {
      console.log(`[firefox] prompt: ${await allowPermissionPrompt(marionette)}`);
      await switchToTab(marionette, panelUrl);
    }
    await until('the card to be answered', () =>
      marionette.execute<boolean>(
        `return document.querySelector('section.approval-card[data-request-id="' + arguments[0] + '"]')?.getAttribute('data-status') !== 'pending';`,
        [state.id],
      ),
    );
  }
  return asked;
}
