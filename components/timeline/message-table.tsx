import Link from "next/link";
import type { MessageSummary } from "@/lib/model";
import { routes } from "@/lib/client/keys";
import { MessageFlags } from "../message-flags";
import { RelativeTime } from "../relative-time";
import { MessageRoute } from "../route";
import { StatusBadge } from "../status-badge";
import { cn } from "../ui/cn";

const TH = "px-3 py-2 text-left text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400";
const TD = "px-3 py-1.5 align-middle";

/**
 * Messages as table rows. Each row's type is a real link, stretched over the whole row so
 * the row is clickable while keyboard users tab through one link per message.
 */
export function MessageTable({ items, caption, compact = false }: { items: MessageSummary[]; caption: string; compact?: boolean }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full table-fixed border-collapse text-sm">
        <caption className="sr-only">{caption}</caption>
        <colgroup>
          <col className="w-32" />
          <col className="w-28" />
          <col className="w-48" />
          <col className="w-52" />
          {compact ? null : <col className="w-44" />}
          <col className="hidden lg:table-column" />
          <col className="w-44" />
        </colgroup>
        <thead className="border-b border-zinc-200 dark:border-zinc-800">
          <tr>
            <th scope="col" className={TH}>Time</th>
            <th scope="col" className={TH}>Status</th>
            <th scope="col" className={TH}>Type</th>
            <th scope="col" className={TH}>From → to</th>
            {compact ? null : <th scope="col" className={TH}>Agent / folder</th>}
            <th scope="col" className={cn(TH, "hidden lg:table-cell")}>Preview</th>
            <th scope="col" className={TH}><span className="sr-only">Flags</span></th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800/70">
          {items.map((m) => (
            <MessageRow key={m.key} message={m} compact={compact} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function MessageRow({ message: m, compact }: { message: MessageSummary; compact: boolean }) {
  return (
    <tr
      className={cn(
        "relative hover:bg-zinc-50 focus-within:bg-zinc-50 dark:hover:bg-zinc-800/50 dark:focus-within:bg-zinc-800/50",
        m.stuck && "bg-red-50/60 dark:bg-red-950/20",
      )}
    >
      <td className={cn(TD, "truncate tabular-nums text-zinc-600 dark:text-zinc-400")}>
        <RelativeTime iso={m.date ?? m.updatedAt} />
      </td>
      <td className={TD}>
        <StatusBadge status={m.status} raw={m.rawStatus} />
      </td>
      <td className={cn(TD, "truncate font-medium")}>
        <Link
          href={routes.message(m.key)}
          prefetch={false}
          className="rounded-sm text-zinc-900 outline-none after:absolute after:inset-0 after:content-[''] hover:underline focus-visible:after:ring-2 focus-visible:after:ring-sky-500 dark:text-zinc-100"
        >
          {m.type ?? <span className="italic text-zinc-400">no type</span>}
        </Link>
      </td>
      <td className={cn(TD, "text-zinc-700 dark:text-zinc-300")}>
        <MessageRoute from={m.from} to={m.to} className="max-w-full" />
      </td>
      {compact ? null : (
        <td className={cn(TD, "truncate text-zinc-600 dark:text-zinc-400")}>
          {m.agent}
          <span className="text-zinc-400 dark:text-zinc-500"> / {m.folder}</span>
        </td>
      )}
      <td className={cn(TD, "hidden truncate text-zinc-500 lg:table-cell dark:text-zinc-400")}>{m.preview}</td>
      <td className={cn(TD, "text-right")}>
        <MessageFlags message={m} showGone wrap={false} className="justify-end" />
      </td>
    </tr>
  );
}
