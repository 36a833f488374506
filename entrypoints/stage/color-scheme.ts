const DARK = '(prefers-color-scheme: dark)';

/** The colour scheme the user's system prefers now. */
export function colorScheme(): 'light' | 'dark' {
  return matchMedia(DARK).matches ? 'dark' : 'light';
}

export function onColorSchemeChange(listener: () => void): void {
  matchMedia(DARK).addEventListener('change', listener);
}
