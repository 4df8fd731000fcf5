import "server-only";
import path from "node:path";
import type { FileRecord, JournalWriter } from "@/lib/journal/writer";
import type { FoundFile, ParsedMessage, Placement } from "@/lib/protocols";
import type { Source } from "./sources";
import { readFound } from "./read";

export interface SyncContext {
  source: Source & { reader: NonNullable<Source["reader"]> };
  writer: JournalWriter;
  /** Whether a root-relative path holds a file right now (decides whether a move can claim it). */
  isPresent(relPath: string): Promise<boolean>;
}

/** Pick the journaled message a new file continues, if its old file is gone. */
async function findClaim(ctx: SyncContext, parsed: ParsedMessage, placement: Placement, relPath: string): Promise<string | null> {
  const candidates = ctx.writer.claimCandidates(ctx.source.id, parsed.messageId, placement.agent, path.posix.basename(relPath));
  for (const c of candidates) {
    if (c.path === relPath) return c.key;
    if (c.path === null || !(await ctx.isPresent(c.path))) return c.key;
  }
  return null;
}

/** A dead letter links to the message it holds; when that was never seen, it is journaled from the copy inside. */
async function linkDeadLetter(ctx: SyncContext, deadLetterKey: string, relPath: string, found: FoundFile, parsed: ParsedMessage): Promise<void> {
  const dl = parsed.deadLetter;
  if (!dl?.originalMessageId) return;
  const { id, protocol } = ctx.source;
  const detail = `dead letter ${relPath}` +
    (dl.retryCount !== null ? ` after ${dl.retryCount} retries` : "") + (dl.lastError ? `: ${dl.lastError}` : "");
  const existing = ctx.writer.claimCandidates(id, dl.originalMessageId, "", "").find((c) => c.key !== deadLetterKey);
  if (existing) {
    ctx.writer.linkDeadLetter(deadLetterKey, existing.key, detail);
    return;
  }
  if (!dl.originalText || !dl.originalAgent) return;
  const originPath = relPath.replace(/dead_letter\/[^/]+$/, `${dl.originalAgent}/processed/${dl.originalFile ?? "unknown.mime"}`);
  const placement: Placement = { agent: dl.originalAgent, folder: "processed" };
  const bytes = Buffer.from(dl.originalText, "utf8");
  const movedMs = dl.movedAt ? Date.parse(dl.movedAt) : NaN;
  const origFound: FoundFile = { relPath: originPath, kind: "file", size: bytes.length, mtimeMs: Number.isNaN(movedMs) ? found.mtimeMs : movedMs, ino: 0 };
  const origParsed = await ctx.source.reader.parse({ relPath: originPath, placement, bytes, found: origFound });
  const rec: FileRecord = {
    source: id, protocol, relPath: null, originPath, placement, found: origFound,
    parsed: { ...origParsed, status: "dead" }, raw: bytes,
  };
  const { key } = ctx.writer.record(rec);
  ctx.writer.linkDeadLetter(deadLetterKey, key, detail);
}

/** Journal one file as it is now. Returns false when the path is not a message location. */
export async function syncFile(ctx: SyncContext, found: FoundFile): Promise<boolean> {
  const { source, writer } = ctx;
  const placement = source.reader.place(found.relPath);
  if (!placement) return false;
  const known = writer.known(source.id, found.relPath);
  if (known && known.mtimeMs === found.mtimeMs && known.size === found.size && known.ino === found.ino) return true;
  const { bytes, keep } = await readFound(source.root, found);
  const parsed = await source.reader.parse({ relPath: found.relPath, placement, bytes, found });
  const claim = known ? null : await findClaim(ctx, parsed, placement, found.relPath);
  const rec: FileRecord = {
    source: source.id, protocol: source.protocol, relPath: found.relPath, originPath: found.relPath,
    placement, found, parsed, raw: keep ? bytes : null,
  };
  const { key } = writer.transaction(() => writer.record(rec, claim));
  if (parsed.deadLetter) await linkDeadLetter(ctx, key, found.relPath, found, parsed);
  return true;
}
