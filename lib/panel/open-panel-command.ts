/** The manifest command that opens the chat side panel in Chrome (background.ts handles it). */
export const OPEN_PANEL_COMMAND = 'open-chat-panel';
/** Firefox opens the sidebar for this reserved command name itself; no handler runs. */
export const FIREFOX_SIDEBAR_COMMAND = '_execute_sidebar_action';
/**
 * Alt+Shift+Y is free in Chrome and Firefox on Windows and Linux (Ctrl+Shift+Y is Firefox's Downloads on
 * Linux); on macOS Option+Shift+Y types a character, so the Control key is used there.
 */
export const OPEN_PANEL_SUGGESTED_KEY = { default: 'Alt+Shift+Y', mac: 'MacCtrl+Shift+Y' } as const;
export const OPEN_PANEL_DESCRIPTION = 'Open the Splitbrain chat panel';

export interface CommandSummary {
  name?: string;
  shortcut?: string;
}

export function openPanelCommandName(browser: string): string {
  return browser === 'firefox' ? FIREFOX_SIDEBAR_COMMAND : OPEN_PANEL_COMMAND;
}

/** The shortcut the user has for opening the panel now (they may have changed or removed it), if any. */
export function openPanelShortcut(commands: readonly CommandSummary[]): string | undefined {
  const command = commands.find(
    (candidate) => candidate.name === OPEN_PANEL_COMMAND || candidate.name === FIREFOX_SIDEBAR_COMMAND,
  );
  return command?.shortcut || undefined;
}
