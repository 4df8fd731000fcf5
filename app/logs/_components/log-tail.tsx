"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { fetchJson } from "@/lib/client/fetcher";
import { keys, routes } from "@/lib/client/keys";
import { keepLast, logParts } from "@/lib/client/log-lines";

/** Lines kept on screen: a tail, not an archive (a day of a busy monitor's log is ~50,000 lines). */
const MAX_LINES = 2000;

interface Slice {
  text: string;
  to: number;
}

function useTail(source: string, name: string, pollMs: number): { lines: string[]; error: string | null } {
  const [state, setState] = useState<{ id: string; lines: string[]; error: string | null }>({ id: "", lines: [], error: null });
  useEffect(() => {
    let from = -1;
    let stop = false;
    const id = `${source}/${name}`;
    const tick = async () => {
      try {
        const slice = await fetchJson<Slice>(keys.log(source, name, from));
        from = slice.to;
        if (!stop) setState((s) => ({ id, lines: keepLast(s.id === id ? s.lines : [], slice.text, MAX_LINES), error: null }));
      } catch (err) {
        if (!stop) setState((s) => ({ ...s, id, error: err instanceof Error ? err.message : String(err) }));
      }
    };
    void tick();
    const timer = setInterval(() => void tick(), pollMs);
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, [source, name, pollMs]);
  return state.id === `${source}/${name}` ? state : { lines: [], error: null };
}

/** One log at a time, live: the last lines, colour codes stripped, message file names linked. */
export function LogTail({ logs, pollMs, multiSource }: { logs: { source: string; name: string }[]; pollMs: number; multiSource: boolean }) {
  const [picked, setPicked] = useState(0);
  const log = logs[picked] ?? logs[0];
  const { lines, error } = useTail(log?.source ?? "", log?.name ?? "", pollMs);
  if (!log) return null;
  return (
    <div className="space-y-2">
      <label className="flex items-center gap-2 text-sm">
        Log
        <select className="rounded-md border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900" value={picked} onChange={(e) => setPicked(Number(e.target.value))}>
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
