// Status colours as raw values, for SVG strokes and React Flow nodes (same tones as StatusBadge).
import { statusTone } from "@/components/status-badge";
import type { BadgeTone } from "@/components/ui/badge";
import type { Vocabulary } from "@/lib/client/catalogs";
import type { Protocol, Status } from "@/lib/model";

const HEX: Record<BadgeTone, string> = {
  neutral: "#a1a1aa",
  sky: "#0ea5e9",
  blue: "#3b82f6",
  amber: "#f59e0b",
  violet: "#8b5cf6",
  emerald: "#10b981",
  teal: "#14b8a6",
  red: "#ef4444",
  orange: "#f97316",
  fuchsia: "#d946ef",
};

export function toneColor(tone: BadgeTone): string {
  return HEX[tone];
}

export function statusColor(words: Vocabulary, status: Status, protocol?: Protocol): string {
  return HEX[statusTone(words, status, protocol)];
}

/** The id of the SVG arrowhead in a status's colour (SequenceView defines one per tone, so any status word has one). */
export function arrowHeadId(words: Vocabulary, status: Status, protocol?: Protocol): string {
  return `seq-head-${statusTone(words, status, protocol)}`;
}

// Made once: building an Intl formatter costs far more than formatting with it.
let localClock: Intl.DateTimeFormat | null = null;

/** Time of day, UTC before hydration and local after (pass `local` from useNow() !== null). */
export function clock(iso: string | null, local: boolean): string {
  const t = iso ? Date.parse(iso) : NaN;
  if (Number.isNaN(t)) return "--:--:--";
  if (!local) return new Date(t).toISOString().slice(11, 19);
  localClock ??= new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });
  return localClock.format(t);
}

/** How a message reads to a screen reader: "strategy_request, leader → strategist, delivered". */
export function describeMessage(m: { type: string | null; from: string | null; to: string[]; status: Status; retryCount: number; stuck: boolean; deadLetterOf: string | null }): string {
  const notes = [m.deadLetterOf ? "dead letter" : null, m.stuck ? "stuck" : null, m.retryCount > 0 ? `retry ${m.retryCount}` : null].filter(Boolean);
  return `${m.type ?? "no type"}, ${m.from ?? "unknown"} → ${m.to.join(", ") || "nobody"}, ${m.status}${notes.length ? ` (${notes.join(", ")})` : ""}`;
}
