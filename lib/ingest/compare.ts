import "server-only";
import type { FileIdentity } from "@/lib/journal/files";
import type { FoundFile } from "@/lib/protocols";
import type { workersForLoad } from "./load-workers";
import { listForLoad, type ListedOnWorkers } from "./list-workers";
import { listSource, underUnreadable, type SourceListing, type UnreadableDir } from "./listing";
import { mayBeThereSync } from "./read";
import { compareListing, type ReadableSource } from "./sync";
import type { TreeDiff } from "./worker";

// A scan's first step (see scanSource in scan.ts): the source's tree against the journal, listed
// here, on the worker threads (a big first scan's), or compared on a worker (a rescan's diff).

/** A source's tree against the journal: what a scan has to read, and what may be gone. */
export interface Comparison {
  /** Files in the tree. */
  files: number;
  /** New files, and files not as journaled. */
  changed: FoundFile[];
  /** Journaled as there, but not listed. */
  unlisted: string[];
  /** Whether a file is there now (a move is matched against it). */
  isThere: (relPath: string) => boolean;
  /** The folders listed (to watch), when this scan listed the tree. */
  dirs: string[] | null;
  /** The agents, when the comparison found them. */
  agents: string[] | null;
  /** Folders the listing could not read: their journaled files are neither gone nor moved. */
  unreadable: UnreadableDir[];
  /** A big tree listed on worker threads, for a bulk load: `changed` is then empty, these are its files. */
  packed: ListedOnWorkers | null;
  /** Worker threads that listed it (0: this one did). */
  listedOn: number;
}

/** List the tree here (unless `listing` was made before) and compare it with `known`, what the journal holds. */
export async function compareHere(
  source: ReadableSource,
  known: Map<string, FileIdentity>,
  { listing, onDir, early, minFiles }: { listing?: SourceListing; onDir?: (dir: string) => void; early: ReturnType<typeof workersForLoad> | null; minFiles: number },
): Promise<Comparison> {
  const dirs: string[] | null = listing ? null : [];
  const listingDir = (dir: string) => {
    dirs?.push(dir);
    onDir?.(dir);
  };
  // Nothing journaled yet: every file will be read, and the read's fstat gives its facts. A big
  // tree whose names order a newest-first load is listed on the workers that will load it.
  const listed =
    listing ??
    (early && source.reader.nameTimeMs
      ? await listForLoad(source, early, minFiles, listingDir)
      : await listSource(source.root, source.reader, { stat: known.size > 0, onListed: early?.onListed, onDir: listingDir }));
  if ("tree" in listed) {
    const hidden = underUnreadable(listed.unreadable);
    return {
      files: listed.size,
      changed: [],
      unlisted: [],
      // No set of a million paths here: a dead letter's original is asked of the disk.
      isThere: (p) => hidden(p) || mayBeThereSync(source.root, p),
      dirs: [...new Set(dirs)],
      agents: null,
      unreadable: listed.unreadable,
      packed: listed,
      listedOn: listed.workers,
    };
  }
  const { files: found, unreadable } = listed;
  const { changed, unlisted, listed: listedPaths } = compareListing(found, known);
  const hidden = underUnreadable(unreadable);
  return {
    files: found.length,
    changed,
    unlisted,
    // Not listed may still mean there now: a listing made before this turn is asked again.
    isThere: (p) => listedPaths.has(p) || hidden(p) || (listing !== undefined && mayBeThereSync(source.root, p)),
    dirs,
    agents: null,
    unreadable,
    packed: null,
    listedOn: 0,
  };
}

/** A comparison a worker thread made: anything it did not list is asked of the disk again. */
export function fromDiff(source: ReadableSource, diff: TreeDiff): Comparison {
  const listed = new Set(diff.changed.map((f) => f.relPath));
  const hidden = underUnreadable(diff.unreadable);
  return {
    files: diff.files,
    changed: diff.changed,
    unlisted: diff.missing,
    isThere: (p) => listed.has(p) || hidden(p) || mayBeThereSync(source.root, p),
    dirs: diff.dirs,
    agents: diff.agents,
    unreadable: diff.unreadable,
    packed: null,
    listedOn: 0,
  };
}
