import "server-only";
import { createHash } from "node:crypto";
import { DEAD_LETTER_FOLDER, NAMED_COUNTS, PROTOCOLS, type AgentStats, type Protocol, type SourceInfo, type Stats, type Status } from "@/lib/model";
import { CATALOGS, catalogOf, VOCABULARY } from "@/lib/protocols";
import { waitingStatuses } from "@/lib/protocols/catalog-types";
import type { Db } from "./db";
import { currentSeq, querySources } from "./queries";
import { VersionedCache } from "./versioned";

type CountRow = { source: string; agent: string; status: string; n: number; stuck: number; last_ms: number | null };
type WaitingRow = { source: string; agent: string; status: string; n: number; oldest_file_ms: number | null; oldest_entry_ms: number; next_retry_at: string | null };
/** One agent's sums while they are gathered. */
type Tally = { counts: Record<string, number>; total: number; stuck: number; last_ms: number | null };

const at = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

/** The statuses an agent's oldest waiting message is looked for in (its catalog's, see waitingStatuses). */
const WAITING = new Map(PROTOCOLS.map((p) => [p, new Set(waitingStatuses(catalogOf(p)))]));
const ALL_WAITING = [...new Set(PROTOCOLS.flatMap((p) => [...(WAITING.get(p) ?? [])]))];
/** The statuses whose next retry time is an agent's next retry, per protocol. */
const RETRY_WAITS = new Map(PROTOCOLS.map((p) => [p, new Set(catalogOf(p).retryWaits ?? [])]));
/** Protocols whose files are their messages (catalog fileLife): a message is as old as its file in its queue. */
const DATED_BY_FILE = new Set(CATALOGS.filter((c) => c.fileLife).map((c) => c.protocol));

const agentKey = (source: string, agent: string) => `${source}\0${agent}`;

/** The fields AgentStats names (NAMED_COUNTS), read from an agent's counts. */
function namedCounts(counts: Record<string, number>): Pick<AgentStats, (typeof NAMED_COUNTS)[number]> {
  return Object.fromEntries(NAMED_COUNTS.map((s) => [s, counts[s] ?? 0])) as Pick<AgentStats, (typeof NAMED_COUNTS)[number]>;
}

/**
 * Each source's protocol. A source no longer configured keeps its messages but loses its row in
 * sources: its protocol is its messages', read up to its first message (no index leads with source;
 * only for such a source, and once per change, as the stats are cached).
 */
function protocolsOf(db: Db, sources: readonly SourceInfo[], counted: Iterable<string>): Map<string, Protocol> {
  const protocols = new Map<string, Protocol>(sources.map((s) => [s.id, s.protocol]));
  for (const source of counted) {
    if (protocols.has(source)) continue;
    const found = db.prepare("SELECT protocol FROM messages WHERE source = ? LIMIT 1").pluck().get(source);
    protocols.set(source, (PROTOCOLS as readonly unknown[]).includes(found) ? (found as Protocol) : "ignite");
  }
  return protocols;
}

/**
 * Agents × status counts (dead letters apart, in the totals as `deadLetters`), from the counts triggers keep (migration 9), so
 * this reads a few rows per agent and the waiting messages (the statuses each catalog says wait,
 * through the status index), never the whole table. Every protocol's
 * status words are counted as they are, under the agent's source's protocol. Last activity: the
 * latest write to a message while it was in the agent's queue (one since moved or pruned included).
 */
export function queryStats(db: Db): Stats {
  const totals: Stats["totals"] = { messages: 0 };
  const byStatus = db
    .prepare("SELECT status, dead_letter, SUM(n) AS n FROM agent_counts GROUP BY status, dead_letter HAVING SUM(n) > 0")
    .all() as { status: Status; dead_letter: number; n: number }[];
  for (const r of byStatus) {
    // A dead letter is "dead" too, but it is the letter, not a message that died: counted apart,
    // so the dead total is the agents' Dead column summed and the letters are /dead-letters' count.
    const into = VOCABULARY.isDeadLetterStatus(r.status) && r.dead_letter === 1 ? "deadLetters" : r.status;
    totals[into] = (totals[into] ?? 0) + r.n;
    totals.messages += r.n;
  }
  // Rows whose count fell to 0 still hold the last activity of messages since moved or pruned.
  const tallies = new Map<string, Tally & { source: string; agent: string }>();
  for (const r of db.prepare("SELECT source, agent, status, n, stuck, last_ms FROM agent_counts WHERE dead_letter = 0").all() as CountRow[]) {
    const key = agentKey(r.source, r.agent);
    const t = tallies.get(key) ?? { source: r.source, agent: r.agent, counts: {}, total: 0, stuck: 0, last_ms: null };
    tallies.set(key, t);
    if (r.n > 0) t.counts[r.status] = r.n;
    t.total += r.n;
    t.stuck += r.stuck;
    if (r.last_ms !== null && (t.last_ms === null || r.last_ms > t.last_ms)) t.last_ms = r.last_ms;
  }
  const sources = querySources(db);
  const protocols = protocolsOf(db, sources, new Set([...tallies.values()].filter((t) => t.total > 0).map((t) => t.source)));
  const waiting = queryWaiting(db, protocols);
  const agents: AgentStats[] = [];
  for (const t of tallies.values()) {
    // A dead letter archived (requeued or discarded) keeps the dead-letter queue's name, which is no agent (see setAgents).
    if (t.total <= 0 || t.agent === DEAD_LETTER_FOLDER) continue;
    const protocol = protocols.get(t.source) ?? "ignite";
    const w = waiting.get(agentKey(t.source, t.agent));
    agents.push({
      source: t.source, protocol, agent: t.agent, counts: t.counts, ...namedCounts(t.counts), stuck: t.stuck,
      waiting: w?.n ?? 0, oldestQueuedAt: at(w?.oldestMs), lastActivityAt: at(t.last_ms), nextRetryAt: w?.nextRetryAt ?? null,
    });
  }
  // Agents whose queue folders exist but hold nothing yet are still agents of the team.
  const seen = new Set(agents.map((a) => agentKey(a.source, a.agent)));
  for (const s of sources) {
    for (const agent of s.agents) {
      if (seen.has(agentKey(s.id, agent))) continue;
      agents.push({
        source: s.id, protocol: s.protocol, agent, counts: {}, ...namedCounts({}), stuck: 0,
        waiting: 0, oldestQueuedAt: null, lastActivityAt: null, nextRetryAt: null,
      });
    }
  }
  agents.sort((a, b) => a.agent.localeCompare(b.agent) || a.source.localeCompare(b.source));
  return { seq: currentSeq(db), totals, agents };
}

type Waiting = { n: number; oldestMs: number | null; nextRetryAt: string | null };

/**
 * Each agent's waiting messages on disk: how many, the oldest, and the earliest retry. IGNITE v3
 * dates a message by its file's mtime (when it landed in the queue); other protocols by the entry's
 * own date, since one file holds many entries.
 */
function queryWaiting(db: Db, protocols: ReadonlyMap<string, Protocol>): Map<string, Waiting> {
  const rows = db
    .prepare(
      `SELECT source, agent, status, count(*) AS n, MIN(mtime_ms) AS oldest_file_ms, MIN(sort_ms) AS oldest_entry_ms, MIN(next_retry_at) AS next_retry_at
       FROM messages WHERE status IN (${ALL_WAITING.map(() => "?").join(", ")}) AND folder != '${DEAD_LETTER_FOLDER}' AND path IS NOT NULL
       GROUP BY source, agent, status`,
    )
    .all(...ALL_WAITING) as WaitingRow[];
  const out = new Map<string, Waiting>();
  for (const r of rows) {
    const protocol = protocols.get(r.source) ?? "ignite";
    if (!WAITING.get(protocol)?.has(r.status)) continue;
    const key = agentKey(r.source, r.agent);
    const w = out.get(key) ?? { n: 0, oldestMs: null, nextRetryAt: null };
    out.set(key, w);
    w.n += r.n;
    const oldest = DATED_BY_FILE.has(protocol) ? r.oldest_file_ms : r.oldest_entry_ms;
    if (oldest !== null && (w.oldestMs === null || oldest < w.oldestMs)) w.oldestMs = oldest;
    if (RETRY_WAITS.get(protocol)?.has(r.status) && r.next_retry_at !== null && (w.nextRetryAt === null || r.next_retry_at < w.nextRetryAt)) w.nextRetryAt = r.next_retry_at;
  }
  return out;
}

/**
 * What the stats are computed from, as a short string (their ETag): every write to a message takes
 * a seq (a prune too), and agents that have no messages yet come from the sources table.
 */
export function statsVersion(db: Db): string {
  const agents = (db.prepare("SELECT group_concat(id || '=' || agents, ';') FROM sources").pluck().get() as string | null) ?? "";
  return `${currentSeq(db)}-${createHash("sha1").update(agents).digest("base64url").slice(0, 12)}`;
}

// Every open overview polls the stats: one computation per change, shared.
const stats = new VersionedCache<Stats>(statsVersion, queryStats);

/** The stats and their version, computed again only once the version moved. */
export function versionedStats(db: Db): { version: string; stats: Stats } {
  const { version, value } = stats.get(db);
  return { version, stats: value };
}
