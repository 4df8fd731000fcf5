import Link from "next/link";
import type { Ref } from "react";
import type { MessageSummary } from "@/lib/model";
import { routes } from "@/lib/client/keys";
import { MessageFlags } from "../message-flags";
import { ProtocolBadge } from "../protocol-badge";
import { RelativeTime } from "../relative-time";
import { MessageRoute } from "../route";
import { StatusBadge } from "../status-badge";
import { cn } from "../ui/cn";
import { TABLE_SCROLL } from "@/components/ui/table-scroll";

/** A name as a unit of its own (FSI … PDI): an unclosed right-to-left override in a sender's name stops at its end. */
const isolated = (name: string) => `\u2068${name}\u2069`;

const TH = "px-3 py-2 text-left text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400";
const TD = "px-3 py-1.5 align-middle";
export const TABLE_CLASS = "w-full table-fixed border-collapse text-sm";
export const TBODY_CLASS = "divide-y divide-zinc-100 dark:divide-zinc-800/70";

/**
 * Messages as table rows. Each row's type is a real link, stretched over the whole row so
 * the row is clickable while keyboard users tab through one link per message.
 * For long, live lists use VirtualMessageList, which renders only the rows in view.
 */
export function MessageTable({
  items,
  caption,
  compact = false,
  showProtocol = false,
}: {
  items: MessageSummary[];
  caption: string;
  compact?: boolean;
  /** The journal holds more than one protocol: each row says which one its message speaks. */
  showProtocol?: boolean;
}) {
  return (
    <div className={TABLE_SCROLL}>
      <table className={TABLE_CLASS}>
        <caption className="sr-only">{caption}</caption>
        <MessageTableHead compact={compact} />
        <tbody className={TBODY_CLASS}>
          {items.map((m) => (
            <MessageRow key={m.key} message={m} compact={compact} showProtocol={showProtocol} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The number of columns, for spacer cells. */
export const columnCount = (compact: boolean) => (compact ? 5 : 6);

/**
 * The column widths and the header row (row 1 for aria-rowindex). Each fixed column fits its
 * longest usual value: the time as the server renders it ("11-20 00:59 UTC", 116 px before the
 * page knows the viewer's zone), "dead_letter / dead_letter" (190 px). The preview takes the rest,
 * sharing its cell with the row's flags, which most rows do not have.
 */
export function MessageTableHead({ compact = false, indexed = false }: { compact?: boolean; indexed?: boolean }) {
  return (
    <>
      <colgroup>
        <col className="w-36" />
        <col className="w-28" />
        <col className="w-48" />
        <col className="w-52" />
        {compact ? null : <col className="w-56" />}
        <col />
      </colgroup>
      <thead className="border-b border-zinc-200 dark:border-zinc-800">
        <tr aria-rowindex={indexed ? 1 : undefined}>
          <th scope="col" className={TH}>Time</th>
          <th scope="col" className={TH}>Status</th>
          <th scope="col" className={TH}>Type</th>
          <th scope="col" className={TH}>From → to</th>
          {compact ? null : <th scope="col" className={TH}>Agent / folder</th>}
          <th scope="col" className={TH}>
            <span className="hidden lg:inline">Preview</span>
            <span className="sr-only"> and flags</span>
          </th>
        </tr>
      </thead>
    </>
  );
}

export function MessageRow({
  message: m,
  compact = false,
  index,
  selected = false,
  showProtocol = false,
  rowRef,
}: {
  message: MessageSummary;
  compact?: boolean;
  /** Say which protocol the message speaks (the journal holds more than one). */
  showProtocol?: boolean;
  /** Position in the whole list (0-based), for virtual lists: data-index and aria-rowindex. */
  index?: number;
  /** The keyboard selection (j/k) is on this row. */
  selected?: boolean;
  rowRef?: Ref<HTMLTableRowElement>;
}) {
  return (
    <tr
      ref={rowRef}
      data-index={index}
      data-key={m.key}
      aria-rowindex={index === undefined ? undefined : index + 2}
      data-selected={selected || undefined}
      className={cn(
        "relative hover:bg-zinc-50 focus-within:bg-zinc-50 dark:hover:bg-zinc-800/50 dark:focus-within:bg-zinc-800/50",
        m.stuck && "bg-red-50/60 dark:bg-red-950/20",
        selected && "bg-sky-50 shadow-[inset_3px_0_0_var(--color-sky-500)] hover:bg-sky-50 dark:bg-sky-950/40 dark:hover:bg-sky-950/40",
      )}
    >
      <td className={cn(TD, "whitespace-nowrap tabular-nums text-zinc-600 dark:text-zinc-400")}>
        <RelativeTime iso={m.date ?? m.updatedAt} />
      </td>
      <td className={TD}>
        <StatusBadge status={m.status} raw={m.rawStatus} protocol={m.protocol} />
      </td>
      <td className={cn(TD, "truncate font-medium")}>
        <Link
          href={routes.message(m.key)}
          prefetch={false}
          className="rounded-sm text-zinc-900 outline-none after:absolute after:inset-0 after:content-[''] hover:underline focus-visible:after:ring-2 focus-visible:after:ring-sky-500 dark:text-zinc-100"
        >
          {m.type === null ? <span className="italic text-zinc-500 dark:text-zinc-400">no type</span> : <span>{m.type}</span>}
          {/* Tabbing from row to row, a screen reader says the link alone: "Info" told one row from no other.
              The type keeps an element of its own, so finding a row by its type's exact text still works. */}
          <span className="sr-only">{`, from ${isolated(m.from ?? "unknown")} to ${m.to.length > 0 ? m.to.map(isolated).join(", ") : "nobody"}`}</span>
        </Link>
      </td>
      <td className={cn(TD, "text-zinc-700 dark:text-zinc-300")}>
        <MessageRoute from={m.from} to={m.to} className="max-w-full" />
      </td>
      {compact ? null : (
        <td className={cn(TD, "truncate text-zinc-600 dark:text-zinc-400")}>
          {m.agent}
          <span className="text-zinc-500 dark:text-zinc-400"> / {m.folder}</span>
        </td>
      )}
      <td className={TD}>
        <div className="flex items-center justify-end gap-2">
          <span className="hidden min-w-0 flex-1 truncate text-zinc-500 lg:block dark:text-zinc-400" data-preview>{m.preview}</span>
          {showProtocol ? <ProtocolBadge protocol={m.protocol} className="shrink-0" /> : null}
          <MessageFlags message={m} showGone wrap={false} className="shrink-0" />
        </div>
      </td>
    </tr>
  );
}
