"use client";

import Link from "next/link";
import { useState } from "react";
import { routes } from "@/lib/client/keys";
import { logParts } from "@/lib/client/log-lines";
import { useTail, type TailStart } from "./use-tail";

/** One log at a time, live: the last lines, colour codes stripped, message file names linked. `start`: the first log's tail, read by the server. */
export function LogTail({ logs, start, pollMs, multiSource }: { logs: { source: string; name: string }[]; start: TailStart | null; pollMs: number; multiSource: boolean }) {
  const [picked, setPicked] = useState(0);
  const log = logs[picked] ?? logs[0];
  const { lines, error } = useTail(log?.source ?? "", log?.name ?? "", pollMs, start);
  if (!log) return null;
  return (
    <div className="space-y-2">
      <label className="flex min-w-0 items-center gap-2 text-sm">
        Log
        <select className="min-w-0 max-w-full rounded-md border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900" value={picked} onChange={(e) => setPicked(Number(e.target.value))}>
          {logs.map((l, i) => (
            <option key={`${l.source}/${l.name}`} value={i}>{multiSource ? `${l.source} · ${l.name}` : l.name}</option>
          ))}
        </select>
      </label>
      {error ? <p role="alert" className="text-sm text-red-700 dark:text-red-400">{error}</p> : null}
      <pre aria-label={`${log.name}, last lines`} className="max-h-[70vh] overflow-auto rounded-lg bg-zinc-50 p-3 font-mono text-xs leading-5 ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800">
        {lines.map((line, i) => (
          <div key={i}>
            {logParts(line).map((p, j) =>
              "file" in p ? (
                <Link key={j} href={routes.messages(`path:${p.file}`)} className="text-sky-700 hover:underline dark:text-sky-400">{p.text}</Link>
              ) : (
                <span key={j}>{p.text}</span>
              ),
            )}
          </div>
        ))}
      </pre>
    </div>
  );
}
