// The count columns for one protocol's agents, from its catalog: which statuses, how each is
// named and flagged, and the messages each count links to. Pure, over the vocabulary the caller
// has (useVocabulary()): the overview's tables and the agent page's card use it.
import type { CountTone } from "@/components/agent-counts";
import type { Vocabulary } from "@/lib/client/catalogs";
import { joinQuery, queryTerm } from "@/lib/client/search-params";
import { DEAD_LETTER_FOLDER, type AgentStats, type Protocol } from "@/lib/model";

export interface CountColumn {
  /** The status word, or "stuck" for the past-due column. */
  key: string;
  label: string;
  tone: CountTone;
  count: (a: AgentStats) => number;
  /** The timeline search listing what the count counts. */
  query: (a: AgentStats) => string;
  /** Its messages wait for a retry: the agent's next retry (stats' `nextRetryAt`) shows under it. */
  retries: boolean;
}

export interface ProtocolColumns {
  counts: CountColumn[];
  /** What the oldest-waiting column is called (stats' `oldestQueuedAt`). */
  oldest: string;
}

/** What the protocol calls an entry past its due time ("Stuck", "Overdue"), or null when its entries have none. */
export function overdueWord(words: Vocabulary, protocol: Protocol): string | null {
  return words.catalogOf(protocol).overdue;
}

/** Failures in red, what waits on something (IGNITE's retrying, shogun's blocked) in amber, the rest plain: IGNITE's columns as they always were. */
function toneOf(words: Vocabulary, status: string, protocol: Protocol): CountTone {
  const d = words.statusDefinition(status, protocol);
  if (d.state === "failed") return "bad";
  return d.tone === "amber" || d.tone === "orange" ? "warn" : "plain";
}

/**
 * An agent's counts are its source's, and leave its dead letters apart (their status too): so does
 * the search behind that count. Without `source:`, two workspaces' `leader` listed more than it said.
 */
function statusQuery(words: Vocabulary, a: Pick<AgentStats, "agent" | "source">, status: string, protocol: Protocol): string {
  const letters = words.catalogOf(protocol).deadLetterStatus === status ? `-folder:${DEAD_LETTER_FOLDER}` : undefined;
  return joinQuery(queryTerm("source", a.source), queryTerm("agent", a.agent), queryTerm("status", status), letters);
}

export function columnsOf(words: Vocabulary, protocol: Protocol): ProtocolColumns {
  const { overdue, oldest, columns, retryWaits = [] } = words.catalogOf(protocol);
  const counts: CountColumn[] = columns.map((status) => ({
    key: status,
    label: words.statusDefinition(status, protocol).label,
    tone: toneOf(words, status, protocol),
    count: (a) => a.counts[status] ?? 0,
    query: (a) => statusQuery(words, a, status, protocol),
    retries: retryWaits.includes(status),
  }));
  if (overdue) {
    counts.push({
      key: "stuck", label: overdue, tone: "alarm", count: (a) => a.stuck, query: (a) => joinQuery(queryTerm("source", a.source), queryTerm("agent", a.agent), "is:stuck"), retries: false,
    });
  }
  return { counts, oldest };
}
