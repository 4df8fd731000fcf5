import { Handle, Position, useStore, type NodeProps } from "@xyflow/react";
import Link from "next/link";
import { memo } from "react";
import { cn } from "@/components/ui/cn";
import { useVocabulary } from "@/lib/client/catalogs";
import { routes } from "@/lib/client/keys";
import { useNow } from "@/lib/client/use-now";
import type { MessageFlowNode, MissingFlowNode } from "./graph-model";
import { MISSING_H, NODE_H, NODE_W } from "./graph-layout";
import { useReplayPhase } from "./replay-store";
import { clock, describeMessage, statusColor } from "./tones";

const HANDLE = "!pointer-events-none !opacity-0";

/** 0: full card; 1: far (type only); 2: tiny (a coloured block: the whole-graph view of thousands). */
const detail = (s: { transform: [number, number, number] }) => (s.transform[2] < 0.1 ? 2 : s.transform[2] < 0.3 ? 1 : 0);

/** A message: coloured by status, the whole card a link to the message. */
export const MessageNode = memo(function MessageNode({ data }: NodeProps<MessageFlowNode>) {
  const m = data.message;
  const phase = useReplayPhase(data.index);
  const local = useNow() !== null;
  // Zoomed far out the text is unreadable: draw less, so panning over hundreds of nodes stays smooth.
  const level = useStore(detail);
  const far = level > 0;
  const words = useVocabulary();
  const colour = statusColor(words, m.status, m.protocol);
  const dead = words.isDeadLetterStatus(m.status, m.protocol) || m.deadLetterOf !== null;
  if (level === 2) {
    return (
      <div data-phase={phase} style={{ width: NODE_W, height: NODE_H, background: colour, opacity: phase === "future" ? 0.15 : 1 }} className="pointer-events-auto relative rounded-lg">
        {/* Still a link: on the whole-graph view of a big thread the keyboard reaches every message. */}
        <Link href={routes.message(m.key)} prefetch={false} aria-label={describeMessage(m)} className="absolute inset-0 rounded-lg outline-none focus-visible:ring-4 focus-visible:ring-zinc-900 dark:focus-visible:ring-white" />
      </div>
    );
  }
  return (
    <div
      data-phase={phase}
      style={{ width: NODE_W, height: NODE_H, borderColor: colour }}
      className={cn(
        "pointer-events-auto relative flex flex-col justify-between rounded-lg border-2 bg-white px-2.5 py-1.5 text-xs shadow-sm transition-[opacity,box-shadow] duration-300 dark:bg-zinc-900",
        dead && "border-dashed",
        (m.stuck || dead) && "bg-red-50 dark:bg-red-950/40",
        phase === "future" && "opacity-15",
        phase === "current" && "shadow-lg ring-4 ring-sky-400",
      )}
    >
      <Handle type="target" position={Position.Top} isConnectable={false} className={HANDLE} />
      <div className="flex items-center gap-1.5">
        <span aria-hidden className="size-2 shrink-0 rounded-full" style={{ background: colour }} />
        <Link
          href={routes.message(m.key)}
          prefetch={false}
          aria-label={describeMessage(m)}
          className="truncate font-semibold text-zinc-900 outline-none after:absolute after:inset-0 after:rounded-lg after:content-[''] hover:underline focus-visible:after:-inset-1 focus-visible:after:ring-[3px] focus-visible:after:ring-zinc-900 dark:text-zinc-100 dark:focus-visible:after:ring-white"
        >
          {m.type ?? "no type"}
        </Link>
        {far ? null : <span className="ml-auto shrink-0 tabular-nums text-zinc-500 dark:text-zinc-400">{clock(m.date ?? m.updatedAt, local)}</span>}
      </div>
      {far ? null : (
        <>
          <div className="truncate text-zinc-600 dark:text-zinc-400">
            {m.from ?? "unknown"} → {m.to.join(", ") || "nobody"}
          </div>
          <div className="flex items-center gap-1.5 text-[11px] font-medium">
            {/* The status's colour is the border's and the dot's: as 11 px text, green on white was 2.5:1. */}
            <span className="text-zinc-800 dark:text-zinc-200">{m.status}</span>
            {m.deadLetterOf ? <span className="text-red-700 dark:text-red-400">✕ dead letter</span> : null}
            {m.stuck ? <span className="text-red-700 dark:text-red-400">stuck</span> : null}
            {m.retryCount > 0 ? <span className="text-amber-700 dark:text-amber-400">↻ {m.retryCount}</span> : null}
          </div>
        </>
      )}
      <Handle type="source" position={Position.Bottom} isConnectable={false} className={HANDLE} />
    </div>
  );
});

/** A parent named by In-Reply-To that is not in this thread. */
export const MissingNode = memo(function MissingNode({ data }: NodeProps<MissingFlowNode>) {
  const { item } = data;
  const label = `missing: ${item.messageId}`;
  return (
    <div
      style={{ width: NODE_W, height: MISSING_H }}
      className="pointer-events-auto relative flex items-center rounded-lg border-2 border-dashed border-zinc-300 bg-zinc-50 px-2.5 text-xs text-zinc-500 dark:text-zinc-400 dark:border-zinc-700 dark:bg-zinc-900/60"
      title={item.key ? "The parent is journaled but belongs to another thread" : "No journaled message has this Message-ID"}
    >
      {item.key ? (
        <Link href={routes.message(item.key)} prefetch={false} className="truncate font-mono outline-none after:absolute after:inset-0 after:content-[''] hover:underline focus-visible:after:ring-2 focus-visible:after:ring-sky-500">
          elsewhere: {item.messageId}
        </Link>
      ) : (
        <span className="truncate font-mono">{label}</span>
      )}
      <Handle type="source" position={Position.Bottom} isConnectable={false} className={HANDLE} />
    </div>
  );
});
