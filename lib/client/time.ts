// Pure date formatting for the UI. "now" is always passed in, so results are testable.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Parses an ISO 8601 string; null for null or unparseable input. */
export function parseTime(iso: string | null | undefined): number | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
}

/** A short duration: "42 s", "3 min", "2 h 5 min", "4 d 3 h". */
export function formatDuration(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < MINUTE) return `${Math.floor(abs / SECOND)} s`;
  if (abs < HOUR) return `${Math.floor(abs / MINUTE)} min`;
  if (abs < DAY) {
    const h = Math.floor(abs / HOUR);
    const m = Math.floor((abs % HOUR) / MINUTE);
    return m ? `${h} h ${m} min` : `${h} h`;
  }
  const d = Math.floor(abs / DAY);
  const h = Math.floor((abs % DAY) / HOUR);
  return h ? `${d} d ${h} h` : `${d} d`;
}

/** "just now", "3 min ago", "in 2 h"; dates beyond a month read as a day count. */
export function formatRelative(then: number, now: number): string {
  const diff = now - then;
  if (Math.abs(diff) < 5 * SECOND) return "just now";
  // Durations past the hour drop the minutes here: "2 h ago" reads faster than "2 h 5 min ago".
  const abs = Math.abs(diff);
  let text: string;
  if (abs < HOUR) text = formatDuration(abs);
  else if (abs < DAY) text = `${Math.floor(abs / HOUR)} h`;
  else text = `${Math.floor(abs / DAY)} d`;
  return diff > 0 ? `${text} ago` : `in ${text}`;
}

// Building an Intl.DateTimeFormat costs far more than using one: a long list formats many times a frame.
const localFormats = new Map<string, Intl.DateTimeFormat>();

/** The viewer's local date and time, e.g. "20 Nov 2026, 09:59:45" (locale-dependent). */
export function formatLocal(t: number, locale?: string): string {
  let format = localFormats.get(locale ?? "");
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    localFormats.set(locale ?? "", format);
  }
  return format.format(t);
}

/** A stable, locale-free rendering used before the client knows the viewer's zone: "2026-11-20 00:59:45 UTC". */
export function formatUtc(t: number): string {
  return new Date(t).toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
}

/** The compact form of formatUtc for narrow cells: "11-20 00:59 UTC". */
export function formatUtcShort(t: number): string {
  return new Date(t).toISOString().slice(5, 16).replace("T", " ") + " UTC";
}
