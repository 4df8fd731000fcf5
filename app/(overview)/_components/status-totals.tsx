import Link from "next/link";
import { statusTone } from "@/components/status-badge";
import { BADGE_TONES } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { routes } from "@/lib/client/keys";
import { STATUSES, type Stats } from "@/lib/model";

/** Totals by status, each a link to the matching messages. */
export function StatusTotals({ totals }: { totals: Stats["totals"] }) {
  const present = STATUSES.filter((s) => (totals[s] ?? 0) > 0);
  return (
    <ul aria-label="Totals by status" className="flex flex-wrap gap-2">
      <li>
        <Link
          href={routes.messages()}
          className="flex items-baseline gap-2 rounded-lg border border-zinc-200 bg-white px-3 py-2 hover:border-zinc-300 dark:border-zinc-800 dark:bg-zinc-900 dark:hover:border-zinc-700"
        >
          <span className="text-lg font-semibold tabular-nums">{totals.messages.toLocaleString("en-US")}</span>
          <span className="text-sm text-zinc-600 dark:text-zinc-400">messages</span>
        </Link>
      </li>
      {present.map((s) => (
        <li key={s}>
          <Link
            href={routes.messages(`status:${s}`)}
            className={cn("flex items-baseline gap-2 rounded-lg px-3 py-2 ring-1 ring-inset hover:brightness-95 dark:hover:brightness-125", BADGE_TONES[statusTone(s)])}
          >
            <span className="text-lg font-semibold tabular-nums">{(totals[s] ?? 0).toLocaleString("en-US")}</span>
            <span className="text-sm">{s}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
