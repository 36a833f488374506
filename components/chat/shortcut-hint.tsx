export interface PanelShortcut {
  /** The keys that open the panel now, as the browser reports them; undefined when none is set. */
  keys: string | undefined;
  /** Opens the browser's page where extension shortcuts are changed. */
  onChange(): void;
}

/** Which keys open this panel from any tab, and where to change them. */
export function ShortcutHint({ shortcut }: { shortcut: PanelShortcut }) {
  return (
    <p className="shortcut-hint">
      {shortcut.keys ? (
        <>
          Press <kbd>{shortcut.keys}</kbd> to open this panel from any tab.{' '}
        </>
      ) : (
        'No keyboard shortcut opens this panel yet. '
      )}
      <button type="button" className="link-button" onClick={shortcut.onChange}>
        {shortcut.keys ? 'Change shortcut' : 'Set a shortcut'}
      </button>
    </p>
  );
}
