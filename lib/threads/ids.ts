// Thread ids: a header thread is addressed by its own X-IGNITE-Thread-ID; an inferred thread by a
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
