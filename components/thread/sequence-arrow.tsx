import Link from "next/link";
import { memo } from "react";
import { cn } from "@/components/ui/cn";
import { useVocabulary } from "@/lib/client/catalogs";
import { routes } from "@/lib/client/keys";
import { useReplayPhase } from "./replay-store";
import { laneX, rowY, type SequenceArrow } from "./sequence-layout";
import { arrowHeadId, describeMessage, statusColor } from "./tones";

/** One arrow, sender → recipient: a link to the message, labelled for screen readers. */
export const SequenceArrowLink = memo(function SequenceArrowLink({ arrow, time, laneW }: { arrow: SequenceArrow; time: string; laneW: number }) {
  const { message: m } = arrow;
  const phase = useReplayPhase(arrow.index);
  const words = useVocabulary();
  const colour = statusColor(words, m.status, m.protocol);
  const y = rowY(arrow.index);
  const x1 = laneX(arrow.from, laneW);
  const x2 = laneX(arrow.to, laneW);
  const self = arrow.from === arrow.to;
  const died = words.isDeadLetterStatus(m.status, m.protocol);
  const dead = died || m.deadLetterOf !== null;
  const marks = [m.deadLetterOf ? "✕ dead letter" : null, died && !m.deadLetterOf ? `✕ ${m.status}` : null, m.stuck ? "stuck" : null, m.retryCount > 0 ? `↻ ${m.retryCount}` : null].filter(Boolean);
  const label = `${time} ${m.from ?? "unknown"} → ${arrow.recipient}: ${describeMessage(m)}`;
  const path = self ? `M ${x1} ${y - 8} h 28 v 16 h -24` : `M ${x1} ${y + 4} H ${x2 + (x2 > x1 ? -7 : 7)}`;
  const textX = self ? x1 + 34 : (x1 + x2) / 2;
  return (
    <Link href={routes.message(m.key)} prefetch={false} aria-label={label} className="group outline-none" data-phase={phase}>
      <g opacity={phase === "future" ? 0.12 : 1} className="transition-opacity duration-300">
        <title>{label}</title>
        <rect x={Math.min(x1, x2) - 4} y={y - ROW_HALF} width={Math.abs(x2 - x1) + (self ? 120 : 8)} height={ROW_HALF * 2} className={cn(
            phase === "current" ? "fill-sky-100 dark:fill-sky-900/50" : "fill-transparent group-hover:fill-zinc-100 group-focus-visible:fill-sky-100 dark:group-hover:fill-zinc-800 dark:group-focus-visible:fill-sky-900/50",
            // The focus ring, whatever the fill (a pale fill alone was 1.1:1 against white, and gone on the replay's current step).
            "group-focus-visible:stroke-zinc-900 group-focus-visible:stroke-2 dark:group-focus-visible:stroke-zinc-100",
          )}
        />
        <path d={path} fill="none" stroke={colour} strokeWidth={phase === "current" ? 3 : 1.75} strokeDasharray={dead ? "5 3" : undefined} markerEnd={`url(#${arrowHeadId(words, m.status, m.protocol)})`} />
        <text x={textX} y={y - 4} textAnchor={self ? "start" : "middle"} className="fill-zinc-800 text-[11px] font-medium dark:fill-zinc-200">
          {truncate(m.type ?? "no type", self ? 18 : Math.max(8, Math.floor(Math.abs(x2 - x1) / 7)))}
          {marks.length ? <tspan fill={dead || m.stuck ? "#dc2626" : "#b45309"}> {marks.join(" ")}</tspan> : null}
        </text>
      </g>
    </Link>
  );
});

const ROW_HALF = 16;

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
