import type { TableData } from '../protocol/view-artifact-data';

export type TableSort = { column: number; direction: 'ascending' | 'descending' };
type Cell = TableData['rows'][number][number];

function compareCells(left: Cell, right: Cell, numeric: boolean): number {
  if (numeric && typeof left === 'number' && typeof right === 'number') return left - right;
  return String(left).localeCompare(String(right), undefined, { numeric: true });
}

/** The rows in display order, with their original index (a stable key); sorted by one column when asked. */
export function sortedTableRows(table: TableData, sort: TableSort | undefined): { index: number; cells: Cell[] }[] {
  const rows = table.rows.map((cells, index) => ({ index, cells }));
  if (!sort) return rows;
  const numeric = table.columns[sort.column]?.type === 'number';
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return rows.sort((left, right) => {
    const [a, b] = [left.cells[sort.column] ?? null, right.cells[sort.column] ?? null];
    if (a === null || b === null) return a === b ? left.index - right.index : a === null ? 1 : -1;
    return sign * compareCells(a, b, numeric) || left.index - right.index;
  });
}

/** Clicking a column: ascending first, then descending, then the original order. */
export function nextTableSort(current: TableSort | undefined, column: number): TableSort | undefined {
  if (current?.column !== column) return { column, direction: 'ascending' };
  return current.direction === 'ascending' ? { column, direction: 'descending' } : undefined;
}

export function cellText(cell: Cell): string {
  if (cell === null) return '';
  if (typeof cell === 'boolean') return cell ? 'yes' : 'no';
  return String(cell);
}
