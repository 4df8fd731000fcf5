// What a protocol tells the UI about its own words: its statuses (with a colour and a tooltip),
// its folders, and which statuses the overview counts per agent. Pure types and constants, and a
// catalog is plain data, so the server can hand it to the browser (each protocol's `catalog.ts`
// builds one; lib/protocols/catalog.ts gathers them; lib/protocols/vocabulary.ts looks words up).
import type { Protocol } from "@/lib/model";
import type { StatusDefinition } from "./entries";

/** The badge colours a status may take: the names of components/ui/badge's tones. */
export const STATUS_TONES = ["neutral", "sky", "blue", "amber", "violet", "emerald", "teal", "red", "orange", "fuchsia"] as const;
export type StatusTone = (typeof STATUS_TONES)[number];

export interface ProtocolCatalog {
  protocol: Protocol;
  /** How the UI names the protocol: "IGNITE v3", "shogun", … */
  label: string;
  /** Every status word the protocol's entries (and the journal, for entries that went) can carry. */
  statuses: readonly StatusDefinition[];
  /** The folder words its places use (Place.folder, MessageSummary.folder). */
  folders: readonly string[];
  /** The status ids the overview shows as count columns for one of its agents, in order. */
  columns: readonly string[];
  /** What it calls an entry past its due time ("Stuck", "Overdue"), or null when its entries have none. */
  overdue: string | null;
  /** What it calls the agent's oldest entry still waiting for someone ("Oldest queued"). */
  oldest: string;
  /** The statuses `oldest` looks in; absent: every open status. */
  waiting?: readonly string[];
  /** The statuses a message waits in for a retry: the earliest next retry of an agent's is read from them. */
  retryWaits?: readonly string[];
  /** The statuses in which its agent holds a message (IGNITE's processing): a lifecycle names that step by its status, not its folder. */
  working?: readonly string[];
  /** The status its dead letters carry: the totals count those apart (deadLetters), not as messages that died. */
  deadLetterStatus?: string;
  /** Where its dead letters lie, as a user would look for them ("queue/dead_letter/"): the pages name it. */
  deadLetterPlace?: string;
  /** What marks a workspace of it ("queue/inbox/"): named when a root holds no protocol's files, so a user can fix the root. */
  workspace: string;
  /** The health words its workspace's records give an agent that is alive (SourceHealth agents' `health`); any other word is worth a look. */
  aliveHealth?: readonly string[];
  /** For a protocol whose files are its messages (journaled by lib/journal/writer.ts): what the journal makes of them. */
  fileLife?: FileLifecycle;
  /** Whether its messages carry a header block (IGNITE v3's MIME headers); the message page shows it only then. */
  headers: boolean;
  /** The hops whose times the charts show as percentiles (lib/journal/charts.ts computes them from the events). */
  hops: readonly HopDefinition[];
}

/**
 * The statuses the journal gives a message of a protocol whose files are its messages, as its file
 * goes, and the status it can get stuck in.
 */
export interface FileLifecycle {
  /** Its agent deleted its file: it was handled. */
  deleted: string;
  /** A clean-up removed its file with many others: not its agent. */
  cleared: string;
  /** An operator archived it, or archived the dead letter holding it. */
  discarded: string;
  /** The folder an operator's discard moves files to. */
  archive: string;
  /** Statuses a message keeps when its file goes (unreadable: nothing more is known; a requeued dead letter: what happened to it is); discarded too, unless a clean-up took it. */
  kept: readonly string[];
  /** The status in which a message becomes stuck once older than the processing timeout. */
  stuck: string;
}

/**
 * One end of a hop, as the journal's events record it: an event of one of `kinds`, and with `to`,
 * only one that moved the message into one of those statuses (a status event "a → b", or a move
 * whose detail ends "(a → b)"). The earliest such event counts.
 */
export interface HopPoint {
  kinds: readonly string[];
  to?: readonly string[];
}

/** A step of a message's life whose duration is charted: from its `start` event to the first `end` event after it. */
export interface HopDefinition {
  id: string;
  /** How the chart names it: "queue → processed". */
  label: string;
  start: HopPoint;
  end: HopPoint;
}

/**
 * The statuses in which a message of the protocol waits for its agent: as the catalog says
 * (`waiting`), else every open status. An agent's "Waiting" count and its oldest waiting message
 * are both taken from these, so the two never disagree.
 */
export function waitingStatuses(catalog: Pick<ProtocolCatalog, "waiting" | "statuses">): readonly string[] {
  return catalog.waiting ?? catalog.statuses.filter((s) => s.state === "open").map((s) => s.id);
}

/** A hop's ends are often "first seen" (the message arrived) and "its status became …". */
export const SEEN: HopPoint = { kinds: ["seen"] };
export const statusBecame = (...to: string[]): HopPoint => ({ kinds: ["status", "moved"], to });

/**
 * The journal's status for a wave-2 entry no longer in any file: a protocol's own words say what
 * an entry is while its file holds it, and none of them says "gone".
 */
export const GONE: StatusDefinition = {
  id: "gone",
  label: "Gone",
  state: "done",
  tone: "neutral",
  help: "Its entry is no longer in any file; the journal kept it",
};
