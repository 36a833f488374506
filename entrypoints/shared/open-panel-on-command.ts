import { OPEN_PANEL_COMMAND } from '@/lib/panel/open-panel-command';

interface ChromeCommandsAndSidePanel {
  commands: { onCommand: { addListener(listener: (command: string, tab?: { windowId?: number }) => void): void } };
  sidePanel: { open(options: { windowId: number }): Promise<void> };
}

/**
 * Chrome: the keyboard shortcut opens the side panel. `sidePanel.open` is allowed only inside the
 * command's user gesture, so the window comes from the listener's tab argument and nothing is awaited first.
 */
export function openPanelOnCommand(): void {
  const chromeApi = (globalThis as unknown as { chrome: ChromeCommandsAndSidePanel }).chrome;
  chromeApi.commands.onCommand.addListener((command, tab) => {
    if (command !== OPEN_PANEL_COMMAND) return;
    if (tab?.windowId === undefined) {
      console.warn('The panel shortcut was pressed outside a browser window; nothing to open it in.');
      return;
    }
    chromeApi.sidePanel
      .open({ windowId: tab.windowId })
      .catch((error: unknown) => console.warn('Could not open the side panel:', error));
  });
}
