import "server-only";
import type { JournalProblem, MessageDetail, MessagePage, MessageSummary, SourceInfo, Stats } from "@/lib/model";
import { KEY_PATTERN } from "@/lib/model";
import { adapterFor, CATALOGS, catalogOf, VOCABULARY } from "@/lib/protocols";
import { readInsideRoot, RefusedFile, streamInsideRoot } from "@/lib/protocols/safe-open";
import { parseQuery, QueryError, type Term } from "@/lib/query";
import { rangeWindow, type TimeRange } from "@/lib/query/range";
import { getConfig } from "@/lib/server/config";
import { ApiError } from "@/lib/server/errors";
import {
  CursorError, DEFAULT_LIMIT, MAX_LIMIT, queryChanges, queryContent, queryHistory, queryPage, querySources, querySummary, type StoredContent,
} from "./queries";
import { locatorOf, offeredActions } from "./actions-offered";
import { journalFaultKind, journalProblem, reportJournalFault } from "./faults";
import type { Charts } from "@/lib/chart-model";
import { queryChart, queryCharts, type ChartName, type ChartQuery, type ChartsAnswer } from "./charts";
import { versionedStats } from "./stats";
import { loadingNow } from "./load-claim";
import { getJournal } from "./store";
import { letterHolding } from "./dead-letters";
import type { Db } from "./db";

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
    terms = parseQuery(opts.q ?? "", VOCABULARY);
  } catch (err) {
    if (err instanceof QueryError) throw new ApiError(400, "bad_query", `Bad search: ${err.message}`);
    throw err;
  }
  const { db } = getJournal();
  checkSources(db, opts.q ?? "", terms);
  // Read first: a chunk committed meanwhile then shows in the answer, never claimed before it is there.
  const loading = loadingNow(db);
  const withLoading = (page: MessagePage): MessagePage => (loading ? { ...page, loading } : page);
  if (opts.since !== undefined) return withLoading(queryChanges(db, terms, opts.since, limit));
  try {
    return withLoading(queryPage(db, terms, limit, opts.cursor ?? null));
  } catch (err) {
    if (err instanceof CursorError) throw new ApiError(400, "bad_cursor", err.message);
    throw err;
  }
}

/**
 * A `source:` that names no source the journal knows is a mistake, said as one: ids are the root's
 * folder name and the protocol (`shogun-shogun`), so `source:shogun` matched nothing, silently.
 */
function checkSources(db: Db, q: string, terms: readonly Term[]): void {
  const named = terms.flatMap((t) => (t.kind === "field" && t.field === "source" && !t.negate && !t.value.includes("*") ? [t.value] : []));
  if (named.length === 0) return;
  const known = db.prepare("SELECT id FROM sources UNION SELECT source FROM agent_counts").pluck().all() as string[];
  const unknown = named.find((v) => !known.includes(v));
  if (unknown === undefined) return;
  const like = known.filter((id) => id.includes(unknown));
  const hint = `${like.length > 0 ? `did you mean ${like.join(" or ")}?` : `the sources are ${known.join(", ") || "none yet"}.`} (source: takes * as a wildcard)`;
  // At the value, as the parser points at any other field's.
  const at = q.indexOf(`source:${unknown}`);
  const { message } = new QueryError(at >= 0 ? at + "source:".length : Math.max(0, q.indexOf(unknown)), `unknown source "${unknown}": ${hint}`);
  throw new ApiError(400, "bad_query", `Bad search: ${message}`);
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

/**
 * What is wrong with the journal, if anything (every page's banner, GET /api/health). Never throws
 * for a journal that cannot be opened: that is the problem it reports (and opening is tried again).
 */
export function getJournalProblem(): JournalProblem | null {
  try {
    getJournal();
  } catch (err) {
    if (journalFaultKind(err) === null) throw err;
  }
  return journalProblem(getConfig().journalFile);
}

/** The sources, or none while the journal cannot be opened (the journal's problem says why). */
export function listSourcesIfOpen(): SourceInfo[] {
  try {
    return listSources();
  } catch (err) {
    if (journalFaultKind(err) === null) throw err;
    return [];
  }
}

/**
 * Whether any workspace is configured (MAILROOM_ROOT). Not whether the journal lists sources yet:
 * a page opened while the server starts must not say there is no workspace.
 */
export function hasWorkspaces(): boolean {
  return getConfig().roots.length > 0;
}

/** What the browser needs to know of the settings. */
export function getClientConfig(): { pollMs: number; readOnly: boolean } {
  const c = getConfig();
  return { pollMs: c.pollMs, readOnly: c.readOnly };
}

/** Where the message's file is now (its source's root and path); null once it is gone. */
function fileOf(content: StoredContent): { root: string; relPath: string } | null {
  if (content.path === null) return null;
  const source = listSources().find((s) => s.id === content.source);
  return source ? { root: source.root, relPath: content.path } : null;
}

/** The message's file as it is on disk now, from one safe open (lib/protocols/safe-open.ts); null once it is gone or refused. */
async function fileBytes(content: StoredContent): Promise<Buffer | null> {
  const file = fileOf(content);
  if (!file) return null;
  const read = await readInsideRoot(file.root, file.relPath).catch(refusedAsNull);
  return read?.bytes ?? null;
}

/** A file Mailroom will not read (gone, a link, a pipe, outside the root…) is no content at all. */
function refusedAsNull(err: unknown): null {
  if (err instanceof RefusedFile) return null;
  throw err;
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

/** An entry's parsed structure (YAML or JSON) as its adapter read it, or null (not an entry). */
function entryData(db: ReturnType<typeof getJournal>["db"], key: string): MessageDetail["data"] {
  const json = db.prepare("SELECT data FROM entries WHERE key = ?").pluck().get(key) as string | null | undefined;
  return json ? (JSON.parse(json) as MessageDetail["data"]) : null;
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
  const detail = {
    ...summary,
    headers: fields?.headers ?? [],
    body: fields?.body ?? content?.body ?? "",
    // An entry of a many-entry file carries its parsed structure as its adapter read it.
    data: fields?.data ?? entryData(db, key),
    ignite: fields?.ignite ?? null,
    history: queryHistory(db, key),
    heldAgent: summary.deadLetterOf === null ? null : (querySummary(db, summary.deadLetterOf)?.agent ?? null),
    heldBy: summary.status === catalogOf(summary.protocol).deadLetterStatus ? letterHolding(db, key) : null,
  };
  return { ...detail, ...offeredActions(db, detail) };
}

const fileNameOf = (content: StoredContent, key: string) => content.lastPath.split("/").pop() || `${key}.mime`;

/** The file's exact bytes (from the journal's copy once the file is gone); null when they are not all kept. */
export async function getRawMessage(key: string): Promise<{ bytes: Buffer; fileName: string } | null> {
  if (!KEY_PATTERN.test(key)) return null;
  const content = queryContent(getJournal().db, key);
  if (!content) return null;
  const bytes = content.raw && !content.rawIsHead ? content.raw : await fileBytes(content);
  return bytes ? { bytes, fileName: fileNameOf(content, key) } : null;
}

/**
 * getRawMessage as a stream of a known size: the journal's copy, else the file streamed from one
 * safe open, never loaded whole (a file too big to keep can be hundreds of MB).
 */
export async function streamRawMessage(key: string): Promise<{ size: number; stream: ReadableStream<Uint8Array>; fileName: string } | null> {
  if (!KEY_PATTERN.test(key)) return null;
  const content = queryContent(getJournal().db, key);
  if (!content) return null;
  const fileName = fileNameOf(content, key);
  if (content.raw && !content.rawIsHead) {
    const bytes = new Uint8Array(content.raw);
    return { size: bytes.length, stream: new Blob([bytes]).stream(), fileName };
  }
  const file = fileOf(content);
  const opened = file ? await streamInsideRoot(file.root, file.relPath).catch(refusedAsNull) : null;
  return opened && { ...opened, fileName };
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

/** The message's id inside its file ("" for a file that is one message), for a writer to find it by. */
export function messageLocator(key: string): string {
  return locatorOf(getJournal().db, key);
}

/**
 * Put an operator's action in a message's history. On a journal that cannot be written now the
 * action (done on disk already) still stands: the entry is logged instead, and the fault reported.
 */
export function recordAction(key: string, kind: string, detail: string): void {
  const journal = getJournal();
  try {
    journal.writer.recordAction(key, kind, detail);
  } catch (err) {
    if (reportJournalFault(journal.file, err) === null) throw err;
    console.error(`[mailroom] not in the history of ${key} (the journal cannot be written): ${kind}: ${detail}`);
  }
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

/** The key of the entry at (path, locator) of a source, if journaled: a wave-2 file holds many messages. */
export function keyAtEntry(sourceId: string, relPath: string, locator: string): string | null {
  const row = getJournal().db.prepare("SELECT e.key FROM entries e JOIN messages m ON m.key = e.key WHERE e.source = ? AND e.path = ? AND e.locator = ?").get(sourceId, relPath, locator) as { key: string } | undefined;
  return row?.key ?? null;
}

/** The charts of the overview or an agent's page (lib/journal/charts.ts). */
export function getCharts(q: ChartQuery): Charts {
  return queryCharts(getJournal().db, q, CATALOGS);
}

/** The charts of a range as of now (a page's first render; polls then ask GET /api/charts). */
export function getChartsOfRange(range: TimeRange, agent?: string): Charts {
  return getCharts({ window: rangeWindow(range, Date.now()), agent });
}

/** The charts, or only the one named. */
export function getChartsOrOne(q: ChartQuery, only?: ChartName): ChartsAnswer {
  return only === undefined ? getCharts(q) : queryChart(getJournal().db, q, only, CATALOGS);
}

export { listDeadLetters, deadLetterHolding } from "./dead-letters";
export { getFacets, holdsSeveralProtocols, type Facets } from "./facets";
export { getThread, getThreadJson, listThreads, threadBodies, threadIdAt } from "./threads";
