import "server-only";
import fs from "node:fs/promises";
import type { MessageDetail, MessagePage, MessageSummary, SourceInfo, Stats } from "@/lib/model";
import { KEY_PATTERN } from "@/lib/model";
import { adapterFor } from "@/lib/protocols";
import { parseQuery, QueryError } from "@/lib/query";
import { getConfig } from "@/lib/server/config";
import { ApiError } from "@/lib/server/errors";
import { resolveInsideRoot } from "@/lib/server/paths";
import {
  CursorError, DEFAULT_LIMIT, MAX_LIMIT, queryChanges, queryContent, queryHistory, queryPage, querySources, querySummary, type StoredContent,
} from "./queries";
import { versionedStats } from "./stats";
import { getJournal } from "./store";

export interface ListOptions {
  q?: string;
  limit?: number;
  cursor?: string;
  since?: number;
}

/** Newest first, or (with `since`) only what changed. Throws ApiError(400) for a bad query or cursor. */
export function listMessages(opts: ListOptions): MessagePage {
  const limit = opts.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new ApiError(400, "bad_limit", `limit must be a whole number from 1 to ${MAX_LIMIT}`);
  }
  let terms;
  try {
    terms = parseQuery(opts.q ?? "");
  } catch (err) {
    if (err instanceof QueryError) throw new ApiError(400, "bad_query", `Bad search: ${err.message}`);
    throw err;
  }
  const { db } = getJournal();
  if (opts.since !== undefined) return queryChanges(db, terms, opts.since, limit);
  try {
    return queryPage(db, terms, limit, opts.cursor ?? null);
  } catch (err) {
    if (err instanceof CursorError) throw new ApiError(400, "bad_cursor", err.message);
    throw err;
  }
}

export function getStats(): Stats {
  return versionedStats(getJournal().db).stats;
}

/** The stats with a version that changes whenever they may have (an ETag for polls). */
export function getVersionedStats(): { version: string; stats: Stats } {
  return versionedStats(getJournal().db);
}

export function listSources(): SourceInfo[] {
  return querySources(getJournal().db);
}

/** What the browser needs to know of the settings. */
export function getClientConfig(): { pollMs: number; readOnly: boolean } {
  const c = getConfig();
  return { pollMs: c.pollMs, readOnly: c.readOnly };
}

/** The message's file as it is on disk now; null once it is gone. */
async function fileBytes(content: StoredContent): Promise<Buffer | null> {
  if (content.path === null) return null;
  const source = listSources().find((s) => s.id === content.source);
  const file = source ? await resolveInsideRoot(source.root, content.path) : null;
  return file ? fs.readFile(file).catch(() => null) : null;
}

/**
 * What the message view reads: the journal's copy (of a file too big to keep, its head: `whole`
 * false, read for its headers, as the view shows no more of such a file and is polled), else the file.
 */
async function viewBytes(content: StoredContent): Promise<{ bytes: Buffer; whole: boolean } | null> {
  if (content.raw) return { bytes: content.raw, whole: !content.rawIsHead };
  const onDisk = await fileBytes(content);
  return onDisk ? { bytes: onDisk, whole: true } : null;
}

/** null when no message has that key. */
export async function getMessage(key: string): Promise<MessageDetail | null> {
  if (!KEY_PATTERN.test(key)) return null;
  const { db } = getJournal();
  const summary = querySummary(db, key);
  if (!summary) return null;
  const content = queryContent(db, key);
  // An empty file is described too: its reference parse is an object of empty fields, not nothing.
  const kept = content && summary.size > 0 ? await viewBytes(content) : content ? { bytes: Buffer.alloc(0), whole: true } : null;
  const adapter = adapterFor(summary.protocol);
  const fields = kept && adapter ? await adapter.describe(kept.bytes, { headOnly: !kept.whole }) : null;
  return {
    ...summary,
    headers: fields?.headers ?? [],
    body: fields?.body ?? content?.body ?? "",
    data: fields?.data ?? null,
    ignite: fields?.ignite ?? null,
    history: queryHistory(db, key),
    heldAgent: summary.deadLetterOf === null ? null : (querySummary(db, summary.deadLetterOf)?.agent ?? null),
  };
}

/** The file's exact bytes (from the journal's copy once the file is gone); null when they are not all kept. */
export async function getRawMessage(key: string): Promise<{ bytes: Buffer; fileName: string } | null> {
  if (!KEY_PATTERN.test(key)) return null;
  const content = queryContent(getJournal().db, key);
  if (!content) return null;
  const bytes = content.raw && !content.rawIsHead ? content.raw : await fileBytes(content);
  return bytes ? { bytes, fileName: content.lastPath.split("/").pop() || `${key}.mime` } : null;
}

/** Where a message's file is, for operations that change it. null for an unknown key. */
export interface MessageLocation {
  summary: MessageSummary;
  root: string;
  /** Root-relative path of the file now, or null when it is gone. */
  path: string | null;
}

export function locateMessage(key: string): MessageLocation | null {
  if (!KEY_PATTERN.test(key)) return null;
  const { db } = getJournal();
  const summary = querySummary(db, key);
  const source = summary ? querySources(db).find((s) => s.id === summary.source) : undefined;
  if (!summary || !source) return null;
  return { summary, root: source.root, path: summary.path };
}

/** Put an operator's action in a message's history. */
export function recordAction(key: string, kind: string, detail: string): void {
  getJournal().writer.recordAction(key, kind, detail);
}

/** The key of the message whose file is at this root-relative path now, if journaled. */
export function keyAtPath(root: string, relPath: string): string | null {
  const { db, writer } = getJournal();
  for (const source of querySources(db).filter((s) => s.root === root)) {
    const known = writer.known(source.id, relPath);
    if (known) return known.key;
  }
  return null;
}

export { listDeadLetters, deadLetterHolding } from "./dead-letters";
export { getFacets, type Facets } from "./facets";
export { getThread, getThreadJson, listThreads, threadBodies } from "./threads";
