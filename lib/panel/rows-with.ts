/**
 * The virtualizer's rows to render, and `row` among them (in order) when it is not already: the list renders the turn
 * it follows even before the browser reports the scroll that brought it into view, which it never does for a hidden
 * page (no rendering steps, no scroll events) and does a frame late for a shown one.
 */
export function rowsWith(rows: readonly number[], row: number | undefined): number[] {
  if (row === undefined || row < 0 || rows.includes(row)) return [...rows];
  return [...rows, row].sort((first, second) => first - second);
}
