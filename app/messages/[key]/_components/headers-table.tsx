import { TABLE_SCROLL } from "@/components/ui/table-scroll";

/** The file's headers, in file order (names can repeat). */
export function HeadersTable({ headers }: { headers: [string, string][] }) {
  if (headers.length === 0) {
    return <p className="px-4 py-6 text-sm text-zinc-500 dark:text-zinc-400">This file has no header block.</p>;
  }
  return (
    <div className={TABLE_SCROLL}>
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">Headers, in file order</caption>
        <thead className="sr-only">
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800/70">
          {headers.map(([name, value], i) => (
            <tr key={i}>
              <th scope="row" className="w-48 whitespace-nowrap px-4 py-1.5 text-left align-top font-mono text-xs font-medium text-zinc-600 dark:text-zinc-400">
                {name}
              </th>
              <td className="whitespace-pre-wrap break-all px-4 py-1.5 font-mono text-xs">{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
