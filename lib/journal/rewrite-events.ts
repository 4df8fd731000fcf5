import "server-only";
import type { Status } from "@/lib/model";
import { addEvent, type WriterParts } from "./writer-parts";

/**
 * Rewrites of one file this close together are one step (the queue monitor's retry runs its four
 * rewrites one tool start apart, about 0.1 s each; its polls are 10 s apart).
 */
const REWRITE_BURST_MS = 5_000;

/** The last event of a message when it is a rewrite in place (kind rewritten or status) at most REWRITE_BURST_MS before `atMs`. */
function lastRewrite({ sql }: WriterParts, key: string, atMs: number): { id: number; kind: string; fromStatus: Status | null } | null {
  const last = sql("SELECT id, at_ms, kind, from_status AS fromStatus FROM events WHERE key = ? ORDER BY id DESC LIMIT 1").get(key) as
    | { id: number; at_ms: number; kind: string; fromStatus: Status | null }
    | undefined;
  const inBurst = last && (last.kind === "rewritten" || last.kind === "status") && Math.abs(atMs - last.at_ms) <= REWRITE_BURST_MS;
  return inBurst ? last : null;
}

/** Forget the rewrites of a burst that turned out to be one step of another kind (a retry's, before its move). */
export function dropRewriteBurst(parts: WriterParts, key: string, atMs: number): void {
  const last = lastRewrite(parts, key, atMs);
  if (last) parts.sql("DELETE FROM events WHERE id = ?").run(last.id);
}

/**
 * A file rewritten where it is. Rewrites in one burst are one entry: the tools change a file one
 * header at a time (IGNITE's retry is four rewrites by four tool runs, then a move), and one
 * step of the message's life should read as one.
 */
export function rewriteEvent(parts: WriterParts, key: string, fileMs: number, from: Status, to: Status, size: number): void {
  // The file's time, but never before a step already journaled: a move is timed when it is seen,
  // and the kernel's file clock runs up to a tick behind that, so a rewrite right after sorted first.
  const latest = parts.sql("SELECT max(at_ms) FROM events WHERE key = ?").pluck().get(key) as number | null;
  const atMs = Math.max(fileMs, latest ?? fileMs);
  const last = lastRewrite(parts, key, atMs);
  // A status event journaled before migration 18 has no from_status: the burst starts here then.
  const first = (last?.kind === "status" ? last.fromStatus : null) ?? from;
  if (last) parts.sql("DELETE FROM events WHERE id = ?").run(last.id);
  if (first !== to) addEvent(parts, key, atMs, "status", `${first} → ${to}`, first);
  else addEvent(parts, key, atMs, "rewritten", `file rewritten (${size} bytes)`);
}
