import "server-only";
import path from "node:path";
import { journalFaultKind } from "@/lib/journal/faults";
import type { JournalWriter } from "@/lib/journal/writer";
import type { FoundFile } from "@/lib/protocols";
import { toRelPath } from "@/lib/protocols/fs-safe";
import { journalDeletions } from "./cleanup";
import { mayBeThereSync, statFound } from "./read";
import { commitFile, isUnchanged, prepareFile, type ReadableSource } from "./sync";
import { entriesIn, listDirs, WATCH_DEPTH, type DirWatcher } from "./watch";

/** A vanished file waits this long for a move to claim it before it counts as deleted. */
const GONE_GRACE_MS = 1000;

/** A new folder and those in it, down to WATCH_DEPTH below its watched root. */
function foldersToWatch(roots: string[], dir: string): string[] {
  const root = roots.find((r) => dir.startsWith(r + path.sep));
  if (!root) return [];
  const level = path.relative(root, dir).split(path.sep).length;
  return level <= WATCH_DEPTH ? listDirs([dir], WATCH_DEPTH - level) : [];
}

/** What the file events need of the ingest service they belong to. */
export interface FileEventsContext {
  /** Read at each use: the journal's connection may be opened again (see reopenJournal). */
  readonly writer: JournalWriter;
  watcher: DirWatcher;
  /** The readable sources as of the last scan. */
  sources: () => readonly ReadableSource[];
  /** Runs a job in ingest's turn (after the scans and batches before it). */
  serial: (job: () => Promise<void>) => Promise<void>;
  stopped: () => boolean;
  /** A watched folder of this source changed itself (its mode, say): one that could not be read may be readable now. */
  folderChanged?: (source: ReadableSource) => void;
}

/**
 * Ingest's fast path: the paths a batch of file events names (or that a rescan or an operation
 * hands in as if they had), each looked at now and journaled as it is found. A file that vanished
 * waits out a grace period, so that a move's other half can claim it, before it counts as gone.
 */
export class FileEvents {
  private readonly pendingGone = new Map<string, { source: ReadableSource; relPath: string; since: number }>();
  private settleTimer: NodeJS.Timeout | null = null;

  constructor(private readonly ctx: FileEventsContext) {}

  /** Look at these absolute paths (call in ingest's turn). */
  async apply(absPaths: string[]): Promise<void> {
    const { writer, watcher } = this.ctx;
    const newDirs: string[] = [];
    const missing: { source: ReadableSource; relPath: string }[] = [];
    for (const abs of absPaths) {
      const at = this.locate(abs);
      if (!at) continue;
      let found: FoundFile | null;
      try {
        found = await statFound(at.source.root, at.relPath);
      } catch (err) {
        // Its folder cannot be read (EACCES, EIO): nothing is known of it, so nothing changes;
        // the rescan says which folder, and takes it up once it can be read.
        console.error(`[mailroom] could not look at ${at.relPath}:`, err);
        continue;
      }
      if (!found) {
        watcher.drop(abs);
        missing.push(at);
        continue;
      }
      if (found.kind === "directory" && !at.source.reader.place(at.relPath)) {
        // An event for a folder watched already (its own metadata changed) brings nothing new;
        // re-reading a processed/ folder of tens of thousands of files would be all cost.
        if (watcher.watches(abs)) {
          this.ctx.folderChanged?.(at.source);
          continue;
        }
        watcher.drop(abs); // a watch left from another folder at this path, and those under it
        newDirs.push(...foldersToWatch(at.source.reader.watchDirs, abs));
        continue;
      }
      this.pendingGone.delete(`${at.source.id}\0${at.relPath}`);
      const ctx = { source: at.source, writer, isPresent: (p: string) => mayBeThereSync(at.source.root, p) };
      if (isUnchanged(ctx, found)) continue;
      try {
        const prepared = await prepareFile(at.source, found);
        if (prepared) writer.transaction(() => commitFile(ctx, prepared));
      } catch (err) {
        // The journal cannot be written: this batch stops, and ingest retries (a rescan brings this file in).
        if (journalFaultKind(err) !== null) throw err;
        console.error(`[mailroom] could not ingest ${at.relPath}:`, err);
      }
    }
    for (const m of missing) {
      if (writer.known(m.source.id, m.relPath)) this.pendingGone.set(`${m.source.id}\0${m.relPath}`, { ...m, since: Date.now() });
    }
    this.armSettle();
    if (newDirs.length === 0) return;
    // Only the new folders and what is in them: the rest is watched already, and reading every
    // folder of a big tree again would hold the main thread (1.3 s at a million files).
    watcher.addDirs(newDirs);
    // Files that came with a folder (moved in whole, or written before its watch was set) send no
    // event of their own: looked at now rather than at the next rescan. Its folders are watched,
    // not read, but for one where a message file should be, which a scan lists as invalid.
    const watched = new Set(newDirs);
    const isMessagePlace = (p: string) => {
      const at = this.locate(p);
      return at !== null && at.source.reader.place(at.relPath) !== null;
    };
    await this.apply(newDirs.flatMap(entriesIn).filter((p) => !watched.has(p) || isMessagePlace(p)));
  }

  /** No more settling of vanished files. */
  stop(): void {
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = null;
  }

  private locate(absPath: string): { source: ReadableSource; relPath: string } | null {
    for (const source of this.ctx.sources()) {
      const rel = toRelPath(source.root, absPath);
      if (rel && !rel.startsWith("..") && !path.isAbsolute(rel)) return { source, relPath: rel };
    }
    return null;
  }

  private armSettle(): void {
    if (this.pendingGone.size === 0 || this.ctx.stopped() || this.settleTimer) return;
    this.settleTimer = setTimeout(() => {
      this.settleTimer = null;
      void this.ctx.serial(() => this.settleGone());
    }, GONE_GRACE_MS + 50);
    this.settleTimer.unref();
  }

  /** Files still missing after the grace period, and not claimed by a move, are gone. */
  private async settleGone(): Promise<void> {
    const { writer } = this.ctx;
    const now = Date.now();
    const gone = new Map<string, string[]>();
    for (const [id, g] of this.pendingGone) {
      if (now - g.since < GONE_GRACE_MS) continue;
      this.pendingGone.delete(id);
      // Back, or not to be told (its folder unreadable): not gone.
      if (await statFound(g.source.root, g.relPath).catch(() => true)) continue;
      gone.set(g.source.id, [...(gone.get(g.source.id) ?? []), g.relPath]);
    }
    // One batch per source: files that went together may be a clean-up (cleanup.ts).
    for (const [source, relPaths] of gone) writer.transaction(() => journalDeletions(writer, source, relPaths));
    this.armSettle();
  }
}
