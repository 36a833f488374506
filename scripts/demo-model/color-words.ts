/** Colours the demo knows by name, as #rrggbb; "warm" and "cool" stand for a warm orange and a cool blue. */
export const namedColors: Record<string, string> = {
  warm: '#ff8a3d',
  warmer: '#ff8a3d',
  cool: '#3da5ff',
  cooler: '#3da5ff',
  cold: '#3da5ff',
  red: '#e53935',
  orange: '#fb8c00',
  yellow: '#fdd835',
  gold: '#ffc107',
  green: '#43a047',
  teal: '#00897b',
  cyan: '#00bcd4',
  blue: '#1e88e5',
  navy: '#1a237e',
  purple: '#8e24aa',
  violet: '#7e57c2',
  magenta: '#d81b60',
  pink: '#f06292',
  brown: '#795548',
  white: '#ffffff',
  black: '#000000',
  gray: '#808080',
  grey: '#808080',
};

/** A colour the words name: a #rrggbb value first, else the first colour name. */
export function colorIn(words: readonly string[]): string | undefined {
  const hex = words.find((word) => /^#[0-9a-f]{6}$/.test(word));
  if (hex) return hex;
  const named = words.find((word) => Object.hasOwn(namedColors, word));
  return named === undefined ? undefined : namedColors[named];
}
