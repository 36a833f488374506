import type { Script } from '../../scripts/scripted-model-server/script';
import type { Marionette } from './marionette';
import { firstTurnEnd, openExtensionTab, openPanel, sendFromComposer, until } from './sidebar-page';

/** The model calls the notes server's readNote once, then answers from it. */
export const READ_SHOPPING_NOTE: Script = {
  turns: [
    {
      steps: [
        { toolCalls: [{ name: 'mcp_notes_readNote', arguments: { title: 'shopping' }, id: 'read-1' }] },
        { text: 'Your note says: buy milk.' },
      ],
    },
  ],
};

/** Opens the options page in a tab and waits for its MCP section. */
export async function openMcpSettings(marionette: Marionette, base: string): Promise<void> {
  await openExtensionTab(marionette, `${base}/options.html`);
  await until('the MCP section', () =>
    marionette.execute<boolean>("return Boolean(document.querySelector('section.mcp-servers'));"),
  );
}

/** Types a server's name and address into the MCP server editor. */
export async function enterMcpServer(marionette: Marionette, name: string, url: string): Promise<void> {
  await marionette.type('[aria-label="Server name"]', name);
  await marionette.type('[aria-label="Server URL"]', url);
}

/** Clicks the editor's Test connection (a trusted click: it may have to open a sign-in window). */
export async function clickTestConnection(marionette: Marionette): Promise<void> {
  await marionette.click(
    "//button[contains(., 'Test connection')][ancestor::form[contains(@class, 'mcp-server-editor')]]",
    'xpath',
  );
}

/** Waits until the editor says the server is saved, and returns what it says. */
export function untilSaved(marionette: Marionette): Promise<string> {
  return until('the save', () =>
    marionette.execute<string | false>(
      "const text = document.querySelector('.mcp-server-editor .status')?.textContent ?? ''; return text.startsWith('Saved') ? text : false;",
    ),
  );
}

/** In a new panel on the scripted model, asks for the shopping note; how the turn ended and its tool cards. */
export async function askForShoppingNote(
  marionette: Marionette,
  base: string,
  modelUrl: string,
): Promise<{ end: string; cards: string[] }> {
  await openPanel(marionette, base, modelUrl);
  await sendFromComposer(marionette, 'What does my shopping note say?');
  const end = await firstTurnEnd(marionette);
  const cards = await marionette.execute<string[]>(
    "return [...document.querySelectorAll('section.tool-card')].map((card) => card.getAttribute('aria-label') + ':' + card.getAttribute('data-status'));",
  );
  return { end, cards };
}
