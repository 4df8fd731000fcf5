// Thread list entries: from the grouped query's rows, or from one thread's messages. Pure.
import type { Status } from "@/lib/model";
import { inProtocolOrder, threadAgents } from "@/lib/threads/agents";
import { kindOf, parseGroup, threadIdOf } from "@/lib/threads/ids";
import type { ThreadDetail, ThreadSummary } from "@/lib/threads/model";

/** One row of threadListSql: a thread group and one status. */
export interface GroupRow {
  g: string;
  status: Status;
  n: number;
  stuck: number;
  first_ms: number;
  last_ms: number;
  /** A JSON array of names (may hold null). */
  senders: string;
  /** A JSON array of each distinct to_list: JSON arrays of names. */
  recipients: string;
  /** A JSON array of the protocols of the group's messages of this status. */
  protocols: string;
}

interface Acc {
  summary: ThreadSummary;
  firstMs: number;
  lastMs: number;
  agents: Set<string>;
  protocols: Set<string>;
}

const iso = (ms: number) => new Date(ms).toISOString();

function names(json: string): string[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v !== "") : [];
}

/** The names of each distinct to_list: recipients, as threadAgents counts them, not holders. */
function recipients(json: string): string[] {
  return names(json).flatMap(names);
}

/** Merge the (group, status) rows into one entry per thread id (lossy slugs merge their groups). */
export function tallyThreads(rows: GroupRow[]): ThreadSummary[] {
  const byId = new Map<string, Acc>();
  for (const r of rows) {
    const group = parseGroup(r.g);
    if (!group) continue;
    const id = threadIdOf(group);
    const kind = kindOf(group);
    const mapKey = `${kind}\0${id}`;
    let acc = byId.get(mapKey);
    if (!acc) {
      acc = {
        summary: { id, kind, count: 0, agents: [], protocols: [], first: null, last: null, statuses: {}, stuck: 0 },
        firstMs: r.first_ms,
        lastMs: r.last_ms,
        agents: new Set(),
        protocols: new Set(),
      };
      byId.set(mapKey, acc);
    }
    acc.summary.count += r.n;
    acc.summary.stuck += r.stuck;
    acc.summary.statuses[r.status] = (acc.summary.statuses[r.status] ?? 0) + r.n;
    acc.firstMs = Math.min(acc.firstMs, r.first_ms);
    acc.lastMs = Math.max(acc.lastMs, r.last_ms);
    for (const a of [...names(r.senders), ...recipients(r.recipients)]) acc.agents.add(a);
    for (const p of names(r.protocols)) acc.protocols.add(p);
  }
  return [...byId.values()].map((acc) => ({
    ...acc.summary, agents: [...acc.agents].sort(), protocols: inProtocolOrder(acc.protocols), first: iso(acc.firstMs), last: iso(acc.lastMs),
  }));
}

/** The list entry of one thread, from its messages. */
export function summarizeThread(t: ThreadDetail): ThreadSummary {
  const statuses: ThreadSummary["statuses"] = {};
  let stuck = 0;
  for (const m of t.messages) {
    statuses[m.status] = (statuses[m.status] ?? 0) + 1;
    if (m.stuck) stuck++;
  }
  // As the thread list times threads (sort_ms): a message deleted now does not make its thread's last activity now.
  const times = t.messages.map((m) => m.sortMs);
  return {
    id: t.id,
    kind: t.kind,
    count: t.messages.length,
    agents: threadAgents(t.messages),
    protocols: inProtocolOrder(t.messages.map((m) => m.protocol)),
    first: times.length ? iso(Math.min(...times)) : null,
    last: times.length ? iso(Math.max(...times)) : null,
    statuses,
    stuck,
  };
}
