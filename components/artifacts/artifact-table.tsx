import { useState } from 'react';
import type { TableData } from '@/lib/protocol/view-artifact-data';
import { cellText, nextTableSort, sortedTableRows, type TableSort } from '@/lib/view-artifacts/view-table-rows';

/** A table artifact; each column header sorts (ascending, descending, original order). */
export function ArtifactTable({ data, caption }: { data: TableData; caption: string }) {
  const [sort, setSort] = useState<TableSort>();
  const rows = sortedTableRows(data, sort);
  return (
    <div className="artifact-table-scroll">
      <table className="artifact-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {data.columns.map((column, index) => (
              <th
                key={index}
                scope="col"
                data-type={column.type ?? 'text'}
                aria-sort={sort?.column === index ? sort.direction : 'none'}
              >
                <button type="button" className="artifact-sort" onClick={() => setSort(nextTableSort(sort, index))}>
                  {column.label}
                  {column.unit && <span className="artifact-unit"> ({column.unit})</span>}
                  <span aria-hidden="true" className="artifact-sort-mark">
                    {sort?.column === index ? (sort.direction === 'ascending' ? '▲' : '▼') : ''}
                  </span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.index}>
              {row.cells.map((cell, index) => (
                <td key={index} data-type={data.columns[index]?.type ?? 'text'}>
                  {cellText(cell)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
