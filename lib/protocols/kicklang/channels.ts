// KickLang channel names ↔ file paths. A channel ("⫻report/status", "⫻report/進捗") may hold
// any Unicode, so each name part that is not plain ASCII becomes %XX bytes of its UTF-8, and back.
// The mapping is one-to-one: a path that is not the canonical form of a channel maps to none. Pure.

export const CHANNELS_DIR = ".kicklang/channels";
const PREFIX = "⫻";
const EXT = ".jsonl";
/** Kept as they are: no dot, so no part is ever `.`/`..`, a dotfile, or a `.tmp`/`.lock` name. */
const PLAIN = /^[A-Za-z0-9_-]+$/;
const ENCODED = /^(?:[A-Za-z0-9_-]|%[0-9A-F]{2})+$/;
/** A file name is at most 255 bytes on common filesystems; the extension takes 6. */
const MAX_PART_BYTES = 240;
const encoder = new TextEncoder();

function encodePart(part: string): string {
  if (PLAIN.test(part)) return part;
  let out = "";
  for (const byte of encoder.encode(part)) {
    const c = String.fromCharCode(byte);
    out += PLAIN.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** "⫻report/進捗" → "report/%E9%80%B2%E6%8D%97.jsonl" (under CHANNELS_DIR), or null for a name that is no channel. */
export function channelToPath(channel: string): string | null {
  if (!channel.startsWith(PREFIX)) return null;
  const parts = channel.slice(PREFIX.length).split("/");
  // Control characters never belong in a name (DESIGN: single-line values hold no CR, LF or NUL).
  if (parts.some((p) => p === "" || /[\u0000-\u001f\u007f]/.test(p))) return null;
  const encoded = parts.map(encodePart);
  if (encoded.some((p) => p.length > MAX_PART_BYTES)) return null;
  return `${encoded.join("/")}${EXT}`;
}

/** "report/status.jsonl" → "⫻report/status"; null unless the path is exactly what channelToPath makes. */
export function pathToChannel(relPath: string): string | null {
  if (!relPath.endsWith(EXT)) return null;
  const parts = relPath.slice(0, -EXT.length).split("/");
  if (!parts.every((p) => ENCODED.test(p))) return null;
  let channel: string;
  try {
    const decoder = new TextDecoder("utf-8", { fatal: true });
    const bytes = (p: string) => Uint8Array.from(p.match(/%[0-9A-F]{2}|[^%]/g) ?? [], (t) => (t.length === 3 ? parseInt(t.slice(1), 16) : t.charCodeAt(0)));
    channel = PREFIX + parts.map((p) => decoder.decode(bytes(p))).join("/");
  } catch {
    return null; // not UTF-8
  }
  return channelToPath(channel) === relPath ? channel : null;
}
