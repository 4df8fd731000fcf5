import "server-only";
import { createHash } from "node:crypto";
import type { AgentStats, Stats, Status } from "@/lib/model";
import type { Db } from "./db";
import { currentSeq, querySources } from "./queries";
import { VersionedCache } from "./versioned";

type Counts = Pick<AgentStats, "source" | "agent" | "queued" | "processing" | "delivered" | "retrying" | "dead" | "stuck"> & { last_ms: number | null };
type LiveQueue = { source: string; agent: string; oldest_queued_ms: number; nextRetryAt: string | null };

const at = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

/**
 * Agents × status counts (dead letters apart, in the totals as `deadLetters`), from the counts triggers keep (migration 9), so
 * this reads a few rows per agent and the live queue (queued and retrying messages, through the
 * status index), never the whole table. Last activity: the latest write to a message while it
 * was in the agent's queue (one since moved or pruned included).
 */
export function queryStats(db: Db): Stats {
  const totals: Stats["totals"] = { messages: 0 };
  const byStatus = db
    .prepare("SELECT status, dead_letter, SUM(n) AS n FROM agent_counts GROUP BY status, dead_letter HAVING SUM(n) > 0")
    .all() as { status: Status; dead_letter: number; n: number }[];
  for (const r of byStatus) {
    // A dead letter is "dead" too, but it is the letter, not a message that died: counted apart,
    // so the dead total is the agents' Dead column summed and the letters are /dead-letters' count.
    const into = r.status === "dead" && r.dead_letter === 1 ? "deadLetters" : r.status;
    totals[into] = (totals[into] ?? 0) + r.n;
    totals.messages += r.n;
  }
  const counts = db
    .prepare(
      `SELECT source, agent,
         SUM(CASE status WHEN 'queued' THEN n ELSE 0 END) AS queued, SUM(CASE status WHEN 'processing' THEN n ELSE 0 END) AS processing,
         SUM(CASE status WHEN 'delivered' THEN n ELSE 0 END) AS delivered, SUM(CASE status WHEN 'retrying' THEN n ELSE 0 END) AS retrying,
         SUM(CASE status WHEN 'dead' THEN n ELSE 0 END) AS dead, SUM(stuck) AS stuck, MAX(last_ms) AS last_ms
       FROM agent_counts WHERE dead_letter = 0 GROUP BY source, agent HAVING SUM(n) > 0`,
    )
    .all() as Counts[];
  const live = new Map(
    (
      db
        .prepare(
          `SELECT source, agent, MIN(mtime_ms) AS oldest_queued_ms, MIN(CASE WHEN status = 'retrying' THEN next_retry_at END) AS nextRetryAt
           FROM messages WHERE status IN ('queued', 'retrying') AND folder != 'dead_letter' GROUP BY source, agent`,
        )
        .all() as LiveQueue[]
    ).map((q) => [`${q.source}\0${q.agent}`, q]),
  );
  const agents: AgentStats[] = counts.map(({ last_ms, ...c }) => {
    const queue = live.get(`${c.source}\0${c.agent}`);
    return { ...c, oldestQueuedAt: at(queue?.oldest_queued_ms), lastActivityAt: at(last_ms), nextRetryAt: queue?.nextRetryAt ?? null };
  });
  // Agents whose queue folders exist but hold nothing yet are still agents of the team.
  const seen = new Set(agents.map((a) => `${a.source}\0${a.agent}`));
  for (const s of querySources(db)) {
    for (const agent of s.agents) {
      if (seen.has(`${s.id}\0${agent}`)) continue;
      agents.push({ source: s.id, agent, queued: 0, processing: 0, delivered: 0, retrying: 0, dead: 0, stuck: 0, oldestQueuedAt: null, lastActivityAt: null, nextRetryAt: null });
    }
  }
  agents.sort((a, b) => a.agent.localeCompare(b.agent) || a.source.localeCompare(b.source));
  return { seq: currentSeq(db), totals, agents };
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
