import "server-only";
import type { DeletedFile, EntryFileFacts, EntrySourceContext, JournaledFile } from "@/lib/journal/entry-writer";
import type { Protocol } from "@/lib/model";
import type { Layout, ProtocolReadSide } from "@/lib/protocols/layout";
import type { EntrySourceFile } from "./entry-files";

// An entry source, and what a scan makes of its tree before it reads anything (see EntryIngest.plan).

export interface EntrySource {
  id: string;
  protocol: Protocol;
  root: string;
  layout: Layout;
  side: ProtocolReadSide;
}

/** A source's tree against the journal: every placed file, and what a scan has to read or forget. */
export interface EntryPlan {
  source: EntrySource;
  files: EntrySourceFile[];
  dirs: string[];
  changed: EntrySourceFile[];
  deleted: DeletedFile[];
  /** How far each file was read, as the journal said when the tree was listed. */
  known: ReadonlyMap<string, EntryFileFacts>;
}

/** What the entry journal is told of a source with each batch: its id, protocol, how it settles, its reader's version. */
export function contextOf(source: EntrySource): EntrySourceContext {
  return {
    source: source.id, protocol: source.protocol, resolve: (e) => source.side.resolve(e),
    anyReferrer: source.side.settlesByAnyReferrer === true, readerVersion: source.side.readerVersion ?? 0,
    keepsItsEntries: (relPath) => {
      const place = source.side.place(relPath);
      return place !== null && source.side.appendOnly(place);
    },
  };
}

/**
 * Of the files the journal read, those this reader can go on from: one an older version of it read
 * is left out, to be read again from its start (its entries are matched by place).
 */
export function readByThisReader(source: EntrySource, files: ReadonlyMap<string, JournaledFile>): Map<string, EntryFileFacts> {
  const version = source.side.readerVersion ?? 0;
  return new Map([...files].filter(([, f]) => f.reader === version));
}

/** After each commit of a load: how many of each source's changed files are in, and its claim (see EntryLoadFront). */
export type OnEntryCommit = (source: EntrySource, loaded: number, claimMs: number) => void;

export interface EntryScan {
  files: number;
  changed: number;
  dirs: string[];
  /** Every agent (inbox, queue, channel) a placed file names. */
  agents: string[];
}

/** What a scan found of a source's tree (its `changed` count is the caller's to fill). */
export function summaryOf(plan: EntryPlan): EntryScan {
  const agents = [...new Set(plan.files.map((f) => f.place.agent).filter((a) => a !== ""))].sort();
  return { files: plan.files.length, changed: 0, dirs: plan.dirs, agents };
}
