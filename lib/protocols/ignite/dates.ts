// Dates as IGNITE writes them: RFC 2822 in `Date`, ISO 8601 with offset in the headers the
// monitor adds later. Strict parsers (V8's Date.parse accepts nearly anything). Pure.

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const NAMED_ZONES: Record<string, number> = {
  ut: 0, gmt: 0, z: 0, edt: -240, est: -300, cdt: -300, cst: -360, mdt: -360, mst: -420, pdt: -420, pst: -480,
};

const RFC2822 =
  /^(?:[a-z]{3}\s*,\s*)?(\d{1,2})\s+([a-z]{3})\s+(\d{2,4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([+-]\d{4}|[a-z]{1,3})?\s*(?:\([^()]*\))?$/i;
const ISO8601 =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Minutes east of UTC for "+0900", "+09:00", "+09", "Z", "GMT"…; null when unknown. */
function offsetMinutes(zone: string | undefined): number | null {
  if (zone === undefined) return 0; // no zone: read as UTC
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone);
  if (m) {
    const minutes = Number(m[2]) * 60 + Number(m[3] ?? "0");
    return m[1] === "-" ? -minutes : minutes;
  }
  return NAMED_ZONES[zone.toLowerCase()] ?? null;
}

/** Builds the instant, rejecting out-of-range fields (e.g. 31 Feb) instead of rolling over. */
function utcIso(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number, offset: number): string | null {
  if (mo < 0 || mo > 11 || h > 23 || mi > 59 || s > 60) return null;
  const local = new Date(Date.UTC(y, mo, d, h, mi, Math.min(s, 59), ms));
  if (local.getUTCDate() !== d || local.getUTCMonth() !== mo) return null;
  if (local.getUTCFullYear() !== y) return null;
  return new Date(local.getTime() - offset * 60_000).toISOString();
}

/** "Fri, 20 Nov 2026 09:59:45 +0900" → "2026-11-20T00:59:45.000Z"; null when not RFC 2822. */
export function rfc2822ToIso(value: string): string | null {
  const m = RFC2822.exec(value.trim());
  if (!m) return null;
  const [, day, mon, year, hh, mm, ss, zone] = m;
  const month = MONTHS.indexOf((mon ?? "").toLowerCase());
  const offset = offsetMinutes(zone);
  if (month < 0 || offset === null) return null;
  let y = Number(year);
  if ((year ?? "").length === 2) y += y < 50 ? 2000 : 1900; // RFC 2822 §4.3 obsolete years
  else if ((year ?? "").length === 3) y += 1900;
  return utcIso(y, month, Number(day), Number(hh), Number(mm), Number(ss ?? "0"), 0, offset);
}

/** "2026-11-20T09:59:49+09:00" → "2026-11-20T00:59:49.000Z"; null when not ISO 8601. */
export function iso8601ToIso(value: string): string | null {
  const m = ISO8601.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, hh, mm, ss, frac, zone] = m;
  const offset = offsetMinutes(zone);
  if (offset === null) return null;
  const ms = Number((frac ?? "0").padEnd(3, "0").slice(0, 3));
  return utcIso(Number(y), Number(mo) - 1, Number(d), Number(hh), Number(mm), Number(ss ?? "0"), ms, offset);
}

/** Either form, to ISO 8601 UTC; null when neither parses. */
export function toUtcIso(value: string): string | null {
  return rfc2822ToIso(value) ?? iso8601ToIso(value);
}
