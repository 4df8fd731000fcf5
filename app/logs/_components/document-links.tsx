import Link from "next/link";
import { routes } from "@/lib/client/keys";

/** Files the agents keep for people to read (a status board), each a page of its own. */
export function DocumentLinks({ documents, multiSource }: { documents: { source: string; name: string }[]; multiSource: boolean }) {
  return (
    <section aria-label="Documents" className="space-y-1">
      <h2 className="text-sm font-medium text-zinc-500 dark:text-zinc-400">Documents</h2>
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        {documents.map((d) => (
          <li key={`${d.source}/${d.name}`}>
            <Link href={routes.document(d.source, d.name)} className="font-mono text-sky-700 hover:underline dark:text-sky-400">
              {multiSource ? `${d.source} · ${d.name}` : d.name}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
