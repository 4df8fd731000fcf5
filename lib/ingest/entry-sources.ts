import "server-only";
// The wave-2 sources of the workspaces, as ingest drives them: adopted at each scan, scanned
// whole then, and kept current by file events and an overdue sweep in between.
import type { Journal } from "@/lib/journal/store";
import type { ReadContext } from "@/lib/protocols/layout";
import { EntryIngest, type EntrySource } from "./entry-ingest";
import type { Source } from "./sources";

export class EntrySources {
  private sources: EntrySource[] = [];
  private ingest: { db: Journal["db"]; ingest: EntryIngest } | null = null;
  /** A scan is under way: its sources' journal is not yet level with their files. */
  private scanning = false;

  constructor(
    private readonly journal: Journal,
    private readonly context: ReadContext = {},
  ) {}

  /** One EntryIngest per journal connection: the journal may be opened again (reopenJournal). */
  private current(): EntryIngest {
    if (this.ingest?.db !== this.journal.db) this.ingest = { db: this.journal.db, ingest: new EntryIngest(this.journal.db, Date.now, this.context) };
    return this.ingest.ingest;
  }

  adopt(all: readonly Source[]): void {
    this.sources = all.flatMap((s) => (s.entries ? [s.entries] : []));
  }

  list(): readonly EntrySource[] {
    return this.sources;
  }

  /** Scan every adopted source; returns the folders to watch and how many files they hold. */
  async scanAll(pause: () => Promise<void>, stopped: () => boolean): Promise<{ dirs: string[]; files: number }> {
    const dirs: string[] = [];
    let files = 0;
    this.scanning = true;
    try {
      for (const source of this.sources) {
        if (stopped()) break;
        const scanned = await this.current().scan(source, pause);
        this.journal.writer.setAgents(source.id, scanned.agents);
        this.journal.writer.setProgress(source.id, scanned.files, scanned.files, true);
        dirs.push(...scanned.dirs);
        files += scanned.files;
      }
    } finally {
      this.scanning = false;
    }
    return { dirs, files };
  }

  /** File events: each source takes the paths that are its own. */
  async apply(absPaths: readonly string[]): Promise<void> {
    for (const source of this.sources) await this.current().applyPaths(source, absPaths);
  }

  /**
   * Overdue entries become stuck; not while a scan is under way, when a request may be journaled a
   * batch before the answer already in its files (a first scan of a 100 MB channel marked 17,000
   * answered requests overdue, each with an "overdue" step in its history, and cleared them again).
   */
  sweepDue(): number {
    return this.sources.length > 0 && !this.scanning ? this.current().sweepDue() : 0;
  }
}
