import type { ReactNode } from "react";

/** When a bucket starts, as a table row names it (UTC, to the minute, as the range picker's custom range). */
export const bucketTime = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ");

/**
 * The numbers behind a chart, in a table the reader can open (and screen readers read in place
 * of the canvas). Rows of nothing but zeros or blanks are left out.
 */
export function ChartTable({ caption, columns, rows }: { caption: string; columns: string[]; rows: { key: string | number; cells: ReactNode[] }[] }) {
  return (
    <details className="mt-2 text-sm">
      <summary className="text-xs text-zinc-600 dark:text-zinc-400">Show the numbers</summary>
      <div className="mt-2 max-h-72 overflow-auto">
        <table className="w-full text-left text-xs tabular-nums">
          <caption className="sr-only">{caption}</caption>
          <thead className="sticky top-0 bg-white dark:bg-zinc-900">
            <tr>
              {columns.map((c) => (
                <th key={c} scope="col" className="px-2 py-1 font-medium">{c}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={columns.length} className="px-2 py-1 text-zinc-500 dark:text-zinc-400">Nothing in this range.</td>
              </tr>
            ) : (
              rows.map((r) => (
                <tr key={r.key} className="border-t border-zinc-100 dark:border-zinc-800">
                  {r.cells.map((cell, i) => (i === 0 ? <th key={i} scope="row" className="px-2 py-1 font-normal">{cell}</th> : <td key={i} className="px-2 py-1">{cell}</td>))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </details>
  );
}
