"use client";

import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { routes } from "@/lib/client/keys";
import { useThreadOf } from "@/lib/client/use-threads";
import { countOf } from "@/lib/client/count";

/** Which thread this message is part of (header or inferred), linking to its graph and sequence. */
export function ThreadSection({ messageKey }: { messageKey: string }) {
  const { thread } = useThreadOf(messageKey);
  if (!thread) return null;
  return (
    <section aria-label="Thread" className="flex flex-wrap items-center gap-2 rounded-lg border border-zinc-200 bg-white px-3 py-2 text-sm dark:border-zinc-800 dark:bg-zinc-900">
      <span className="font-medium text-zinc-700 dark:text-zinc-300">Thread</span>
      <Link href={routes.thread(thread.id)} className="break-all font-mono text-sky-700 hover:underline dark:text-sky-400">
        {thread.id}
      </Link>
      {thread.kind === "inferred" ? (
        <Badge tone="amber" title="Its messages state no thread id: grouped by repository + issue or task_id">inferred</Badge>
      ) : null}
      <span className="text-zinc-500 dark:text-zinc-400">
        {countOf(thread.count, "message")} · {countOf(thread.agents.length, "agent")} · graph, sequence and replay
      </span>
    </section>
  );
}
