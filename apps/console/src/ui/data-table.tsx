import type { ReactNode } from 'react';
import { ScrollBox } from './feedback';

/** One column of a DataTable: its header, and the content of its cell in a row. */
export interface Column<T> {
  header: ReactNode;
  cell(item: T): ReactNode;
  /** The class of its cells (`break` for long values that may wrap anywhere). */
  className?: string;
}

export interface DataTableProps<T> {
  /** Names the scroll region, and the table unless `caption` is given. */
  label: string;
  /** The table's name, for screen readers only unless `captionShown`. */
  caption?: ReactNode;
  captionShown?: boolean;
  className?: string;
  columns: Column<T>[];
  rows: T[];
  rowKey(item: T, index: number): string | number;
  rowClassName?(item: T): string;
}

/** A list as a table, in a scroll box of its own: one header cell a column, one row an item. */
export function DataTable<T>({ label, caption = label, captionShown = false, className, columns, rows, rowKey, rowClassName }: DataTableProps<T>) {
  return (
    <ScrollBox label={label}>
      <table className={className}>
        <caption className={captionShown ? undefined : 'visually-hidden'}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th key={index} scope="col">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((item, index) => (
            <tr key={rowKey(item, index)} className={rowClassName?.(item)}>
              {columns.map((column, columnIndex) => (
                <td key={columnIndex} className={column.className}>
                  {column.cell(item)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollBox>
  );
}
