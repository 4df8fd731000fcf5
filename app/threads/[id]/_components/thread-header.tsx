import { ProtocolBadge } from "@/components/protocol-badge";
import { RelativeTime } from "@/components/relative-time";
import { StatusBadge } from "@/components/status-badge";
import { Badge } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button";
import { keys } from "@/lib/client/keys";
import type { Status } from "@/lib/model";
import { inProtocolOrder, threadAgents } from "@/lib/threads/agents";
import type { ThreadDetail } from "@/lib/threads/model";
import { countOf } from "@/lib/client/count";

/** Title, kind (header or inferred), protocol, size, agents, time span, status mix and the downloads. */
export function ThreadHeader({ thread: t, showProtocol = false }: { thread: ThreadDetail; showProtocol?: boolean }) {
  const statuses = new Map<Status, number>();
  for (const m of t.messages) statuses.set(m.status, (statuses.get(m.status) ?? 0) + 1);
  const agents = threadAgents(t.messages);
  const first = t.messages[0];
  const last = t.messages[t.messages.length - 1];
  const protocols = showProtocol ? inProtocolOrder(t.messages.map((m) => m.protocol)) : [];
  return (
    <header className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="break-all font-mono text-xl font-semibold tracking-tight">{t.id}</h1>
        {protocols.map((p) => <ProtocolBadge key={p} protocol={p} />)}
        {t.kind === "inferred" ? (
          <Badge tone="amber" title="The messages name no thread: grouped by repository + issue or by task">inferred</Badge>
        ) : (
          <Badge title="The messages name this thread themselves (IGNITE's Thread-ID, a shogun command, a workflow task, a KickLang correlation root)">named</Badge>
        )}
        <div className="ml-auto flex flex-wrap gap-1.5" aria-label="Download this thread">
          <a href={keys.threadExport(t.id, "md")} download className={buttonClass("secondary", "py-1 text-xs")}>Transcript (.md)</a>
          <a href={keys.threadExport(t.id, "json")} download className={buttonClass("secondary", "py-1 text-xs")}>JSON</a>
          <a href={keys.threadExport(t.id, "zip")} download className={buttonClass("secondary", "py-1 text-xs")}>Original files (.zip)</a>
        </div>
      </div>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        {countOf(t.messages.length, "message")} between {countOf(agents.length, "agent")} ·{" "}
        <RelativeTime iso={first?.date ?? null} variant="absolute" /> → <RelativeTime iso={last?.date ?? null} variant="absolute" />
        {t.missing.length > 0 ? ` · ${countOf(t.missing.length, "reply", "replies")} to a message not in this thread` : ""}
      </p>
      <ul aria-label="Messages by status" className="flex flex-wrap gap-1.5">
        {[...statuses].map(([status, n]) => (
          <li key={status} className="inline-flex items-center gap-1 text-xs text-zinc-600 dark:text-zinc-400">
            <StatusBadge status={status} /> {n.toLocaleString("en-US")}
          </li>
        ))}
      </ul>
    </header>
  );
}
