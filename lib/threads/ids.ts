// Thread ids: a header thread is addressed by the thread id its files state; an inferred thread by a
// readable, stable, URL-safe id made from what groups it. Pure.
import type { ThreadKind } from "./model";

const SEP = "\u001f";

/** The journal's grouping of a message, as the thread SQL spells it (see lib/journal/thread-sql.ts). */
export type GroupKey =
  | { by: "header"; threadId: string }
  | { by: "issue"; repository: string; issue: string }
  | { by: "task"; taskId: string };

/** Letters, digits and `_` stay; every other run becomes one `-` (so `owner/repo` → `owner-repo`). */
export function slug(text: string): string {
  const s = text.replace(/[^A-Za-z0-9_]+/g, "-").replace(/^-+|-+$/g, "");
  // Text with nothing ASCII (a Japanese task id) still gets a stable id.
  return s !== "" ? s.slice(0, 100) : `h${fnv1a(text)}`;
}

/** FNV-1a (32 bit) as 8 hex digits: a short stable name for text that has no ASCII letters. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

export function threadIdOf(g: GroupKey): string {
  switch (g.by) {
    case "header":
      return g.threadId;
    case "issue":
      return `issue-${slug(g.repository)}-${slug(g.issue)}`;
    case "task":
      return `task-${slug(g.taskId)}`;
  }
}

export function kindOf(g: GroupKey): ThreadKind {
  return g.by === "header" ? "header" : "inferred";
}

/** The SQL group string (`h␟id`, `i␟repo␟issue`, `t␟task`) as a GroupKey; null for anything else. */
export function parseGroup(g: string): GroupKey | null {
  const [tag, a, b] = g.split(SEP);
  if (tag === "h" && a !== undefined) return { by: "header", threadId: g.slice(2) };
  if (tag === "i" && a !== undefined && b !== undefined) return { by: "issue", repository: a, issue: b };
  if (tag === "t" && a !== undefined) return { by: "task", taskId: g.slice(2) };
  return null;
}

export function groupString(g: GroupKey): string {
  if (g.by === "header") return `h${SEP}${g.threadId}`;
  if (g.by === "issue") return `i${SEP}${g.repository}${SEP}${g.issue}`;
  return `t${SEP}${g.taskId}`;
}

/** What an inferred id could be made of, read from its prefix (null: not an inferred id). */
export function inferredPrefix(id: string): "issue" | "task" | null {
  if (id.startsWith("issue-")) return "issue";
  if (id.startsWith("task-")) return "task";
  return null;
}

// ---- a thread id in an address (/threads/<segment>, /api/threads/<segment>) ----

/**
 * The longest id an address carries as itself: 1,024 UTF-16 units percent-encode to at most
 * 9 KiB, inside Node's 16 KiB request head. A longer one (a huge Thread-ID header) goes by a hash.
 */
export const MAX_ADDRESSED_ID = 1024;
const LONG_ID_SEGMENT = /^~h([0-9a-f]{16})$/;

/** 64-bit FNV-1a of the id's UTF-8, as 16 hex digits. */
export function longIdHash(id: string): string {
  let h = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(id)) h = BigInt.asUintN(64, (h ^ BigInt(byte)) * 0x100000001b3n);
  return h.toString(16).padStart(16, "0");
}

/**
 * A thread id as one path segment, percent-encoded. A browser resolves "." and ".." (even as
 * %2E) away, so those, and every id that itself starts with "~", get a "~" in front.
 */
export function threadIdSegment(id: string): string {
  if (id.length > MAX_ADDRESSED_ID) return `~h${longIdHash(id)}`;
  return encodeURIComponent(id === "." || id === ".." || id.startsWith("~") ? `~${id}` : id);
}

/** What a (decoded) segment names: a thread id, or the hash of a long one. */
export function threadAddressOf(segment: string): { id: string } | { hash: string } {
  const long = LONG_ID_SEGMENT.exec(segment)?.[1];
  if (long) return { hash: long };
  return { id: segment.startsWith("~") ? segment.slice(1) : segment };
}
