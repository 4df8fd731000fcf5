import Link from "next/link";
import { statusTone } from "@/components/status-badge";
import { BADGE_TONES } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { useVocabulary } from "@/lib/client/catalogs";
import { routes } from "@/lib/client/keys";
import { DEAD_LETTER_FOLDER, type Stats } from "@/lib/model";

/** Keys of the totals that are not statuses. */
const NOT_STATUSES = new Set(["messages", "deadLetters"]);

/** The dead messages themselves, not the dead letters holding them (their own total). */
const deadMessages = (status: string) => `status:${status} -folder:${DEAD_LETTER_FOLDER}`;

interface Chip {
  n: number;
  label: string;
  tone: ReturnType<typeof statusTone>;
  href: string;
  title?: string;
}

/** Totals by status, each a link to the matching messages; the dead letters beside the dead messages they hold. */
export function StatusTotals({ totals }: { totals: Stats["totals"] }) {
  const words = useVocabulary();
  const present = Object.keys(totals).filter((k) => !NOT_STATUSES.has(k) && (totals[k] ?? 0) > 0);
  const chips: Chip[] = words.inStatusOrder(present).map((s) =>
    words.isDeadLetterStatus(s)
      ? { n: totals[s] ?? 0, label: s, tone: statusTone(words, s), href: routes.messages(deadMessages(s)), title: `Messages that died: the agents' ${words.statusDefinition(s).label} column, summed` }
      : { n: totals[s] ?? 0, label: s, tone: statusTone(words, s), href: routes.messages(`status:${s}`) },
  );
  if (totals.deadLetters) {
    const dead = chips.findIndex((c) => words.isDeadLetterStatus(c.label));
    const letters: Chip = {
      n: totals.deadLetters,
      label: totals.deadLetters === 1 ? "dead letter" : "dead letters",
      // Coloured as the status the letters carry (with no dead messages counted, the first protocol's).
      tone: statusTone(words, chips[dead]?.label ?? words.deadLetterStatuses[0] ?? ""),
      href: routes.deadLetters,
      title: `Files in ${words.deadLetterPlaces.join(" and ")}, each holding a message that died: the ones Dead letters lists`,
    };
    chips.splice(dead < 0 ? chips.length : dead + 1, 0, letters);
  }
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
      {chips.map((c) => (
        <li key={c.label}>
          <Link
            href={c.href}
            title={c.title}
            className={cn("flex items-baseline gap-2 rounded-lg px-3 py-2 ring-1 ring-inset hover:brightness-95 dark:hover:brightness-125", BADGE_TONES[c.tone])}
          >
            <span className="text-lg font-semibold tabular-nums">{c.n.toLocaleString("en-US")}</span>
            <span className="text-sm">{c.label}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
