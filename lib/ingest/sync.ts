import "server-only";
import path from "node:path";
import type { FileIdentity } from "@/lib/journal/files";
import type { ClaimCandidate } from "@/lib/journal/claim-candidates";
import type { FileRecord, JournalWriter } from "@/lib/journal/writer";
import type { DeadLetterInfo, FoundFile, ParsedMessage, Placement } from "@/lib/protocols";
import type { Source } from "./sources";
import { readFoundSync } from "./read";

export type ReadableSource = Source & { reader: NonNullable<Source["reader"]> };

export interface SyncContext {
  source: ReadableSource;
  writer: JournalWriter;
  /** Whether a root-relative path holds a file right now (decides whether a move can claim it). */
  isPresent(relPath: string): boolean;
}

/** A file read and parsed, ready to journal in a transaction with others. */
export interface PreparedFile {
  record: FileRecord;
  /** For a dead letter whose original was never seen: that original, parsed from the copy inside. */
  original: FileRecord | null;
}

/** Read and parse one file (the slow, async part); null when the path is not a message location or the file is gone. */
export async function prepareFile(source: ReadableSource, listed: FoundFile): Promise<PreparedFile | null> {
  const placement = source.reader.place(listed.relPath);
  if (!placement) return null;
  const read = readFoundSync(source.root, listed);
  if (!read) return null;
  const { found, bytes, keep } = read;
  const parsed = await source.reader.parse({ relPath: found.relPath, placement, bytes, found });
  const record: FileRecord = {
    source: source.id, protocol: source.protocol, relPath: found.relPath, originPath: found.relPath,
    // A file too big to keep keeps its head (read for its headers), so they outlive it.
    placement, found, parsed, raw: bytes, rawIsHead: bytes !== null && !keep,
  };
  return { record, original: await prepareOriginal(source, found, parsed, placement) };
}

async function prepareOriginal(source: ReadableSource, found: FoundFile, parsed: ParsedMessage, held: Placement): Promise<FileRecord | null> {
  const dl = parsed.deadLetter;
  if (!dl?.originalMessageId || !dl.originalText || !dl.originalAgent) return null;
  // The protocol says where the original lived, and what it is while the letter holds it.
  const origin = source.reader.deadLetterOriginal?.({ relPath: found.relPath, placement: held, status: parsed.status }, dl);
  if (!origin) return null;
  const { relPath: originPath, placement } = origin;
  const bytes = Buffer.from(dl.originalText, "utf8");
  const movedMs = dl.movedAt ? Date.parse(dl.movedAt) : NaN;
  const origFound: FoundFile = { relPath: originPath, kind: "file", size: bytes.length, mtimeMs: Number.isNaN(movedMs) ? found.mtimeMs : movedMs, ino: 0 };
  const origParsed = await source.reader.parse({ relPath: originPath, placement, bytes, found: origFound });
  return {
    source: source.id, protocol: source.protocol, relPath: null, originPath, placement, found: origFound,
    parsed: { ...origParsed, status: origin.status }, raw: bytes,
  };
}

/**
 * Where a claim ranks (lower first), or null for a message whose file is still where it was. Copies
 * of one Message-ID in two queues each keep their own message, content and all, so a file
 * continues, in turn: a message of its own queue whose file moved here (an agent's own move, a
 * retry); one a dead letter holds, whose file is gone (a requeue, to its queue or another); one
 * from another queue whose file moved here (moved there by hand); and last any other gone one.
 */
function claimRank(c: ClaimCandidate, relPath: string, agent: string, isPresent: (p: string) => boolean): number | null {
  const moved = c.path !== null && (c.path === relPath || !isPresent(c.path));
  if (!moved && c.path !== null) return null;
  const own = c.agent === agent;
  if (moved) return own ? 0 : 3;
  if (c.held) return own ? 1 : 2;
  return own ? 4 : 5;
}

/** Pick the journaled message a new file continues (see claimRank), if any. */
function findClaim(ctx: SyncContext, rec: FileRecord): string | null {
  const relPath = rec.relPath ?? rec.originPath;
  const candidates = ctx.writer.claimCandidates(ctx.source.id, rec.parsed.messageId, rec.placement.agent, path.posix.basename(relPath));
  // A file that replaces another in place (a converted message) continues it, gone yet or not.
  const replaced = ctx.source.reader.replacedPath?.(relPath) ?? null;
  const converted = replaced
    ? ctx.writer.claimCandidates(ctx.source.id, null, rec.placement.agent, path.posix.basename(replaced)).find((c) => c.path === replaced || (c.path === null && c.lastPath === replaced))
    : undefined;
  if (converted) return converted.key;
  let best: { key: string; rank: number } | null = null;
  for (const c of candidates) {
    const rank = claimRank(c, relPath, rec.placement.agent, ctx.isPresent);
    if (rank !== null && (best === null || rank < best.rank)) best = { key: c.key, rank };
  }
  return best?.key ?? null;
}

/**
 * With copies of the Message-ID in several queues (one per recipient), the copy that failed: the
 * letter names no queue, but the monitor deleted that copy's file, named original_file, as it wrote
 * the letter, after retrying it. The first To: decides only between copies alike in all that.
 */
function heldCopy(ctx: SyncContext, candidates: ClaimCandidate[], dl: DeadLetterInfo): ClaimCandidate | undefined {
  const score = (c: ClaimCandidate): number =>
    (dl.originalFile !== null && c.lastPath !== null && path.posix.basename(c.lastPath) === dl.originalFile ? 8 : 0) +
    (c.path === null || !ctx.isPresent(c.path) ? 4 : 0) +
    (c.retryCount > 0 ? 2 : 0) +
    (c.agent === dl.originalAgent ? 1 : 0);
  let best: { c: ClaimCandidate; s: number } | undefined;
  for (const c of candidates) if (best === undefined || score(c) > best.s) best = { c, s: score(c) };
  return best?.c;
}

/** A dead letter links to the message it holds; when that was never seen, it is journaled from the copy inside. */
function linkDeadLetter(ctx: SyncContext, deadLetterKey: string, prepared: PreparedFile): void {
  const { parsed, relPath } = prepared.record;
  const dl = parsed.deadLetter;
  if (!dl?.originalMessageId) return;
  const detail = `dead letter ${relPath}` +
    (dl.retryCount !== null ? ` after ${dl.retryCount} retries` : "") + (dl.lastError ? `: ${dl.lastError}` : "");
  const candidates = ctx.writer.claimCandidates(ctx.source.id, dl.originalMessageId, "", "").filter((c) => c.key !== deadLetterKey);
  const existing = heldCopy(ctx, candidates, dl);
  if (existing) {
    ctx.writer.linkDeadLetter(deadLetterKey, existing.key, detail);
  } else if (prepared.original) {
    const { key } = ctx.writer.record(prepared.original);
    ctx.writer.linkDeadLetter(deadLetterKey, key, detail);
  }
}

/** Journal a prepared file (synchronous: call inside a transaction). Returns its key. */
export function commitFile(ctx: SyncContext, prepared: PreparedFile): string {
  const rec = prepared.record;
  const known = rec.relPath ? ctx.writer.known(ctx.source.id, rec.relPath) : null;
  const claim = known ? null : findClaim(ctx, rec);
  const { key } = ctx.writer.record(rec, claim, (before, after) => ctx.source.reader.lifecycleStep?.(before, after) ?? null);
  if (rec.parsed.deadLetter) linkDeadLetter(ctx, key, prepared);
  return key;
}

/** Whether a journaled file is the one on disk now (same mtime, size and inode). */
export function sameFile(known: FileIdentity | null | undefined, found: FoundFile): boolean {
  return !!known && known.mtimeMs === found.mtimeMs && known.size === found.size && known.ino === found.ino;
}

/** A listing against what the journal holds: files new or not as journaled, journaled paths not listed, and the listed paths. */
export function compareListing(
  found: readonly FoundFile[],
  known: ReadonlyMap<string, FileIdentity>,
): { changed: FoundFile[]; unlisted: string[]; listed: ReadonlySet<string> } {
  const listed = new Set(found.map((f) => f.relPath));
  return {
    changed: found.filter((f) => !sameFile(known.get(f.relPath), f)),
    unlisted: [...known.keys()].filter((p) => !listed.has(p)),
    listed,
  };
}

/** Whether the journal already has this file exactly as it is on disk. */
export function isUnchanged(ctx: SyncContext, found: FoundFile): boolean {
  return sameFile(ctx.writer.known(ctx.source.id, found.relPath), found);
}
