import { describe, expect, it } from 'vitest';
import {
  FIREFOX_SIDEBAR_COMMAND,
  OPEN_PANEL_COMMAND,
  openPanelCommandName,
  openPanelShortcut,
} from './open-panel-command';

describe('openPanelShortcut', () => {
  it('reads the current shortcut of the panel command in either browser', () => {
    expect(
      openPanelShortcut([
        { name: '_execute_action', shortcut: 'Ctrl+Shift+U' },
        { name: OPEN_PANEL_COMMAND, shortcut: 'Alt+Shift+Y' },
      ]),
    ).toBe('Alt+Shift+Y');
    expect(openPanelShortcut([{ name: FIREFOX_SIDEBAR_COMMAND, shortcut: 'Ctrl+Alt+P' }])).toBe('Ctrl+Alt+P');
  });

  it('is undefined when the user removed the shortcut or the command is missing', () => {
    expect(openPanelShortcut([{ name: OPEN_PANEL_COMMAND, shortcut: '' }])).toBeUndefined();
    expect(openPanelShortcut([])).toBeUndefined();
  });
});

describe('openPanelCommandName', () => {
  it('uses the reserved sidebar command in Firefox and a named command in Chrome', () => {
    expect(openPanelCommandName('firefox')).toBe(FIREFOX_SIDEBAR_COMMAND);
    expect(openPanelCommandName('chrome')).toBe(OPEN_PANEL_COMMAND);
  });
});
