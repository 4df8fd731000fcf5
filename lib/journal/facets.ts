import "server-only";
import { PROTOCOLS, type Protocol } from "@/lib/model";
import type { Db } from "./db";
import { currentSeq, querySources } from "./queries";
import { getJournal } from "./store";

/** Values the search box offers for completion (GET /api/facets). */
export interface Facets {
  /** Queue owners, senders and the agents the workspaces declare, sorted. */
  agents: string[];
  types: string[];
  priorities: string[];
  /** Threads of the most recent messages, most recent first (at most THREAD_LIMIT). */
  threads: string[];
  /** Sources that hold messages (`<root-basename>-<protocol>`), sorted. */
  sources: string[];
  /** The protocols those messages speak, in PROTOCOLS order. */
  protocols: Protocol[];
}

export const THREAD_LIMIT = 50;
/** Recent rows read (through the sort index) for columns that have no index of their own. */
const RECENT_WINDOW = 3000;
/** A column holding more distinct values than this is not worth offering in full. */
const MAX_VALUES = 200;
const COLUMNS = ["agent", "from_name", "type", "priority"] as const;
type Column = (typeof COLUMNS)[number];

/** Columns that lead a full (non-partial) index: their distinct values are a cheap skip-scan. */
function indexedColumns(db: Db): Set<string> {
  const rows = db
    .prepare(
      `SELECT ii.name AS col FROM pragma_index_list('messages') il, pragma_index_info(il.name) ii
       WHERE ii.seqno = 0 AND il.partial = 0`,
    )
    .all() as { col: string | null }[];
  return new Set(rows.flatMap((r) => (r.col ? [r.col] : [])));
}

/** Distinct values of an indexed column: one index probe per value, never a table scan. */
function distinctByIndex(db: Db, column: Column): string[] {
  return db
    .prepare(
      `WITH RECURSIVE v(x) AS (
         SELECT (SELECT MIN(${column}) FROM messages WHERE ${column} IS NOT NULL)
         UNION ALL
         SELECT (SELECT MIN(${column}) FROM messages WHERE ${column} > v.x) FROM v WHERE v.x IS NOT NULL LIMIT ${MAX_VALUES}
       ) SELECT x FROM v WHERE x IS NOT NULL`,
    )
    .pluck()
    .all() as string[];
}

type RecentRow = Record<Column | "thread_id", string | null>;

function recentRows(db: Db): RecentRow[] {
  return db
    .prepare(`SELECT ${COLUMNS.join(", ")}, thread_id FROM messages ORDER BY sort_ms DESC, key DESC LIMIT ${RECENT_WINDOW}`)
    .all() as RecentRow[];
}

function distinctIn(rows: RecentRow[], column: Column | "thread_id", limit: number): string[] {
  const seen = new Set<string>();
  for (const r of rows) {
    const v = r[column];
    if (v) seen.add(v);
    if (seen.size >= limit) break;
  }
  return [...seen];
}

/**
 * Each source that holds messages, with its protocol. The per-source counts the triggers keep
 * (agent_counts) name the sources without a scan; the sources table knows each configured one's
 * protocol, and a source no longer configured (its messages stay) is asked of one of its rows.
 */
export function querySourceProtocols(db: Db): { source: string; protocol: Protocol }[] {
  const rows = db
    .prepare(
      `SELECT c.source, s.protocol FROM (SELECT source FROM agent_counts GROUP BY source HAVING SUM(n) > 0) c
       LEFT JOIN sources s ON s.id = c.source`,
    )
    .all() as { source: string; protocol: string | null }[];
  // Only a source no longer configured has no protocol in sources. Through the index of
  // one-message files on disk, else of entries' places (a file of many); a source whose every
  // file is gone takes a scan.
  const ofFile = db.prepare("SELECT protocol FROM messages WHERE source = ? AND path IS NOT NULL AND locator = '' LIMIT 1").pluck();
  const ofEntry = db.prepare("SELECT m.protocol FROM entries e JOIN messages m ON m.key = e.key WHERE e.source = ? AND e.path IS NOT NULL LIMIT 1").pluck();
  const ofRow = db.prepare("SELECT protocol FROM messages WHERE source = ? LIMIT 1").pluck();
  return rows.flatMap((r) => {
    const stored = r.protocol ?? ((ofFile.get(r.source) ?? ofEntry.get(r.source) ?? ofRow.get(r.source)) as string | undefined);
    const protocol = PROTOCOLS.find((p) => p === stored);
    return protocol ? [{ source: r.source, protocol }] : [];
  });
}

/** The protocols the journal's messages speak, in PROTOCOLS order. */
const protocolsOf = (pairs: { protocol: Protocol }[]) => PROTOCOLS.filter((p) => pairs.some((s) => s.protocol === p));

const sorted = (values: Iterable<string>) => [...new Set(values)].sort((a, b) => a.localeCompare(b));

/**
 * Every value is exact for columns with an index (skip-scan); the others come from the most
 * recent messages, which is what a reader searches for. Never a scan of the whole table.
 */
export function queryFacets(db: Db): Facets {
  const indexed = indexedColumns(db);
  const recent = recentRows(db);
  const values = (column: Column) => (indexed.has(column) ? distinctByIndex(db, column) : distinctIn(recent, column, MAX_VALUES));
  const declared = querySources(db).flatMap((s) => s.agents);
  const sources = querySourceProtocols(db);
  return {
    agents: sorted([...values("agent"), ...values("from_name"), ...declared]),
    types: sorted(values("type")),
    priorities: sorted(values("priority")),
    threads: distinctIn(recent, "thread_id", THREAD_LIMIT),
    sources: sorted(sources.map((s) => s.source)),
    protocols: protocolsOf(sources),
  };
}

/** How long a computed answer is served while the journal keeps changing. */
const FRESH_MS = 5000;
const cache = new WeakMap<Db, { seq: number; at: number; facets: Facets }>();

/** Facets, recomputed when the journal changed and the last answer is older than FRESH_MS. */
export function cachedFacets(db: Db, now: number = Date.now()): Facets {
  const seq = currentSeq(db);
  const hit = cache.get(db);
  if (hit && (hit.seq === seq || now - hit.at < FRESH_MS)) return hit.facets;
  const facets = queryFacets(db);
  cache.set(db, { seq, at: now, facets });
  return facets;
}

/**
 * The configured journal holds messages of more than one protocol: pages then say which one each
 * message speaks (with one, every row would say the same). Cheap (the per-source counts), so
 * asked on each page render.
 */
export function holdsSeveralProtocols(): boolean {
  return protocolsOf(querySourceProtocols(getJournal().db)).length > 1;
}

/** Completion values for the search box, from the configured journal. */
export function getFacets(): Facets {
  return cachedFacets(getJournal().db);
}
