"use client";

import { ProtocolBadge } from "@/components/protocol-badge";
import { clock, statusColor } from "@/components/thread/tones";
import { useVocabulary } from "@/lib/client/catalogs";
import { useNow } from "@/lib/client/use-now";
import { useTicker } from "@/lib/client/use-ticker";
import type { MessagePage } from "@/lib/model";

/** The latest messages of every protocol, newest on top; a screen reader hears each new one. */
export function PresentTicker({ initial, pollMs, several }: { initial: MessagePage; pollMs: number; several: boolean }) {
  const { items, error } = useTicker(initial, pollMs);
  const local = useNow() !== null;
  const words = useVocabulary();
  return (
    <section aria-labelledby="present-ticker" className="flex min-h-0 flex-1 flex-col gap-2">
      <h2 id="present-ticker" className="text-lg font-semibold">Latest messages</h2>
      {error ? <p className="text-base text-red-700 dark:text-red-400">Ticker paused: {error.message}</p> : null}
      {items.length === 0 ? <p className="text-lg text-zinc-500 dark:text-zinc-400">No messages yet.</p> : null}
      {/* A column that wraps: a message that does not fit whole moves to a second column, out of sight, rather than showing half. */}
      <ol aria-live="polite" aria-relevant="additions" className="flex min-h-0 flex-1 flex-col flex-wrap gap-x-8 gap-y-2 overflow-hidden" data-testid="present-ticker">
        {items.map((m) => (
          <li key={m.key} className="w-full border-l-4 pl-3" style={{ borderColor: statusColor(words, m.status, m.protocol) }}>
            <div className="flex min-w-0 items-baseline gap-2">
              <time className="shrink-0 text-sm tabular-nums text-zinc-500 dark:text-zinc-400">{clock(m.date ?? m.updatedAt, local)}</time>
              <span className="truncate text-lg font-medium">{m.type ?? "no type"}</span>
              {several ? <ProtocolBadge protocol={m.protocol} className="ml-auto shrink-0 text-sm" /> : null}
            </div>
            <p className="truncate text-base text-zinc-600 dark:text-zinc-300">
              {m.from ?? "unknown"} → {m.to.join(", ") || "nobody"} · <span className="font-medium text-zinc-800 dark:text-zinc-100">{m.status}</span>
            </p>
          </li>
        ))}
      </ol>
    </section>
  );
}
