// The agents view's rows: every agent of every protocol with what an operator asks first — is it
// alive, how much waits for it, since when, and how often it fails. Pure: the page and its tests.
import type { AgentStats, Protocol, SourceHealthItem } from "@/lib/model";
import type { Vocabulary } from "@/lib/protocols/types";

export interface AgentRow {
  agent: string;
  source: string;
  protocol: Protocol;
  /** The agent's own word from its workspace's health record (healthy, unresponsive, stale, …), or null when none keeps one. */
  health: string | null;
  /** Needs a look: its health record says so, or messages of its are past due. */
  unhealthy: boolean;
  lastSeenAt: string | null;
  /** Messages still waiting for their agent (its protocol's waiting statuses: those "oldest" is looked for in too). */
  depth: number;
  oldestAt: string | null;
  /** Failed messages (its protocol's failed statuses) over all of its messages, 0 to 1. */
  errorRate: number;
  stuck: number;
}

export const SORT_KEYS = ["attention", "agent", "protocol", "lastSeen", "depth", "oldest", "errorRate"] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export function agentRows(words: Vocabulary, agents: readonly AgentStats[], health: readonly SourceHealthItem[] | null): AgentRow[] {
  const recorded = new Map<string, string>();
  for (const { source, health: h } of health ?? []) for (const a of h?.agents ?? []) recorded.set(`${source}\0${a.name}`, a.health);
  return agents.map((a) => {
    // Waiting is what "Oldest waiting" looks in (AgentStats.waiting): an IGNITE message its agent is
    // processing is open but no longer waits, and an entry gone from its files waits for no one.
    const depth = a.waiting;
    let failed = 0;
    let total = 0;
    for (const [status, n] of Object.entries(a.counts)) {
      total += n;
      if (words.statusDefinition(status, a.protocol).state === "failed") failed += n;
    }
    const word = recorded.get(`${a.source}\0${a.agent}`) ?? null;
    return {
      agent: a.agent, source: a.source, protocol: a.protocol, health: word,
      // Its protocol's words for a live agent (catalog aliveHealth); anything else recorded is worth a look.
      unhealthy: (word !== null && !(words.catalogOf(a.protocol).aliveHealth ?? []).includes(word)) || a.stuck > 0,
      lastSeenAt: a.lastActivityAt, depth, oldestAt: a.oldestQueuedAt, errorRate: total > 0 ? failed / total : 0, stuck: a.stuck,
    };
  });
}

const time = (iso: string | null) => (iso ? Date.parse(iso) : -Infinity);

/** Rows in the order asked; "attention" (the default) puts the unhealthy first, then the most waiting. */
export function sortAgents(rows: readonly AgentRow[], key: SortKey, descending: boolean): AgentRow[] {
  const by: Record<SortKey, (a: AgentRow, b: AgentRow) => number> = {
    attention: (a, b) => Number(b.unhealthy) - Number(a.unhealthy) || b.stuck - a.stuck || b.depth - a.depth || a.agent.localeCompare(b.agent),
    agent: (a, b) => a.agent.localeCompare(b.agent),
    protocol: (a, b) => a.protocol.localeCompare(b.protocol) || a.agent.localeCompare(b.agent),
    lastSeen: (a, b) => time(a.lastSeenAt) - time(b.lastSeenAt),
    depth: (a, b) => a.depth - b.depth,
    // The oldest waiting message first when ascending: the earliest time.
    oldest: (a, b) => time(a.oldestAt) - time(b.oldestAt),
    errorRate: (a, b) => a.errorRate - b.errorRate,
  };
  const sorted = [...rows].sort(by[key]);
  return key !== "attention" && descending ? sorted.reverse() : sorted;
}
