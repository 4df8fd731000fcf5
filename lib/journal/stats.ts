import "server-only";
import { createHash } from "node:crypto";
import type { Stats } from "@/lib/model";
import type { Db } from "./db";
import { currentSeq, queryStats } from "./queries";
import { VersionedCache } from "./versioned";

/**
 * What the stats are computed from, as a short string (their ETag): every write to a message takes
 * a seq (a prune too), and agents that have no messages yet come from the sources table.
 */
export function statsVersion(db: Db): string {
  const agents = (db.prepare("SELECT group_concat(id || '=' || agents, ';') FROM sources").pluck().get() as string | null) ?? "";
  return `${currentSeq(db)}-${createHash("sha1").update(agents).digest("base64url").slice(0, 12)}`;
}

// The per-agent sums read the whole table (85 ms at 100,000 messages), and every open overview polls them.
const stats = new VersionedCache<Stats>(statsVersion, queryStats);

/** The stats and their version, computed again only once the version moved. */
export function versionedStats(db: Db): { version: string; stats: Stats } {
  const { version, value } = stats.get(db);
  return { version, stats: value };
}
