"use client";

import Link from "next/link";
import { ProtocolBadge } from "@/components/protocol-badge";
import { RelativeTime } from "@/components/relative-time";
import { StatusBadge } from "@/components/status-badge";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { useVocabulary } from "@/lib/client/catalogs";
import { errorMessage } from "@/lib/client/fetcher";
import { routes } from "@/lib/client/keys";
import { useThreads } from "@/lib/client/use-threads";
import type { ThreadList as ThreadListData, ThreadSummary } from "@/lib/threads/model";
import { TABLE_SCROLL } from "@/components/ui/table-scroll";
import { countOf } from "@/lib/client/count";

const TH = "px-3 py-2 text-left text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400";
const TD = "px-3 py-2 align-top";

/**
 * Every thread, newest activity first, polled; a thread with a failed (dead) or stuck message stands
 * out. `showProtocol`: the journal holds several protocols, so each thread says which it speaks.
 */
export function ThreadList({ q, initial, pollMs, showProtocol = false }: { q: string; initial: ThreadListData; pollMs?: number; showProtocol?: boolean }) {
  const { list, error } = useThreads(q, initial, pollMs);
  return (
    <section aria-label="Threads" className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-zinc-500 dark:text-zinc-400">
        <p>
          {list.total === list.items.length ? countOf(list.total, "thread") : `The ${list.items.length.toLocaleString("en-US")} most recent of ${countOf(list.total, "thread")}; search to narrow.`}
        </p>
        <p role="status">
          {error ? (
            <span className="text-red-700 dark:text-red-400">Live updates paused: {errorMessage(error)}</span>
          ) : (
            <span className="inline-flex items-center gap-1.5"><span aria-hidden className="size-1.5 rounded-full bg-emerald-500" />Live</span>
          )}
        </p>
      </div>
      <div className={`${TABLE_SCROLL} rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900`}>
        {list.items.length === 0 ? (
          <p className="px-4 py-10 text-center text-sm text-zinc-500 dark:text-zinc-400">
            {q ? "No thread has a message that matches." : "No threads yet. Messages with a Thread-ID, a repository and issue, or a task_id form them."}
          </p>
        ) : (
          <table className="w-full border-collapse text-sm">
            <caption className="sr-only">Threads, newest activity first</caption>
            <thead className="border-b border-zinc-200 dark:border-zinc-800">
              <tr>
                <th scope="col" className={TH}>Thread</th>
                <th scope="col" className={cn(TH, "text-right")}>Messages</th>
                <th scope="col" className={TH}>Agents</th>
                <th scope="col" className={TH}>First</th>
                <th scope="col" className={TH}>Last activity</th>
                <th scope="col" className={TH}>Status mix</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800/70">
              {list.items.map((t) => (
                <ThreadRow key={`${t.kind}:${t.id}`} thread={t} showProtocol={showProtocol} />
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}

function ThreadRow({ thread: t, showProtocol }: { thread: ThreadSummary; showProtocol: boolean }) {
  const { inStatusOrder, statusDefinition } = useVocabulary();
  // A status its protocol's catalog calls failed (IGNITE's dead, shogun's failed), whatever its word.
  const failed = Object.keys(t.statuses).some((s) => t.statuses[s] && t.protocols.some((p) => statusDefinition(s, p).state === "failed"));
  const alarm = failed || t.stuck > 0;
  return (
    <tr className={cn("relative hover:bg-zinc-50 focus-within:bg-zinc-50 dark:hover:bg-zinc-800/50", alarm && "bg-red-50/60 dark:bg-red-950/20")}>
      <td className={TD}>
        <span className="flex flex-wrap items-center gap-1.5">
          <Link href={routes.thread(t.id)} className="break-all font-mono font-medium text-zinc-900 outline-none after:absolute after:inset-0 after:content-[''] hover:underline focus-visible:after:ring-2 focus-visible:after:ring-sky-500 dark:text-zinc-100">
            {t.id}
          </Link>
          {showProtocol ? t.protocols.map((p) => <ProtocolBadge key={p} protocol={p} />) : null}
          {t.kind === "inferred" ? <Badge tone="amber" title="The messages name no thread: grouped by repository + issue or by task">inferred</Badge> : null}
        </span>
      </td>
      <td className={cn(TD, "text-right tabular-nums")}>{t.count.toLocaleString("en-US")}</td>
      <td className={cn(TD, "max-w-72 text-zinc-600 dark:text-zinc-400")}>{t.agents.join(", ")}</td>
      <td className={cn(TD, "whitespace-nowrap text-zinc-600 dark:text-zinc-400")}><RelativeTime iso={t.first} /></td>
      <td className={cn(TD, "whitespace-nowrap text-zinc-600 dark:text-zinc-400")}><RelativeTime iso={t.last} /></td>
      <td className={TD}>
        <span className="flex flex-wrap gap-1">
          {inStatusOrder(Object.keys(t.statuses).filter((s) => t.statuses[s])).map((s) => (
            <span key={s} className="inline-flex items-center gap-0.5 text-xs tabular-nums text-zinc-600 dark:text-zinc-400">
              <StatusBadge status={s} />×{t.statuses[s]}
            </span>
          ))}
          {t.stuck > 0 ? <Badge tone="red" title="Processing longer than the stuck timeout">{t.stuck} stuck</Badge> : null}
        </span>
      </td>
    </tr>
  );
}
