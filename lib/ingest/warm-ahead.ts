import "server-only";
// A load that reads its files on its own thread (a lane's, see lane-job.ts) waits on the disk for
// each one when the tree is cold: the first start after a machine's boot. Once its own first reads
// show that (the kernel's count of the process's disk reads grew over one: an appended file is
// read on libuv's threads), the files after the one being read are read into the page cache ahead
// of it by a FileWarmer's thread (warm-files.ts), as a first scan's load does. Until then nothing
// starts: a warm tree pays two looks at /proc a read, for its first few reads only.
import { diskReadBytes } from "./disk-reads";
import { FileWarmer } from "./warm-files";

/** Reads judged before a load is taken to be warm. */
const SAMPLE_READS = 8;
/** Files read ahead of the one being read, at most, in jobs of this many: the thread stays ahead, and a job is soon judged. */
const AHEAD_FILES = 1_000;
const JOB_FILES = 100;

/** A file of a load, under its source's root. */
export interface WarmablePart {
  source: { root: string };
  file: { relPath: string };
}

export class WarmAhead {
  private judged = 0;
  private cold = false;
  /** parts[warmedTo] is the first part not yet asked of a warmer. */
  private warmedTo = 0;
  private readonly warmers = new Map<string, FileWarmer | null>();

  constructor(private readonly parts: readonly WarmablePart[]) {}

  /** Whether the load's reads were found to need the disk, and warmers started. */
  get warming(): boolean {
    return this.cold;
  }

  /** Files the warmers read off the disk so far. */
  get read(): number {
    return [...this.warmers.values()].reduce((n, w) => n + (w?.tally.read ?? 0), 0);
  }

  /** Read parts[at] with `read`, which reads it on this thread; the files after it warmed once the tree is found cold. */
  async around<T>(at: number, read: () => Promise<T>): Promise<T> {
    if (this.cold) this.aheadOf(at);
    if (this.judged >= SAMPLE_READS) return read();
    const before = diskReadBytes("process");
    try {
      return await read();
    } finally {
      const after = diskReadBytes("process");
      this.judged = before === null ? SAMPLE_READS : this.judged + 1;
      if (before !== null && after !== null && after > before) {
        this.cold = true;
        this.judged = SAMPLE_READS;
        this.aheadOf(at);
      }
    }
  }

  /** Stop the warmers' threads. */
  async close(): Promise<void> {
    await Promise.all([...this.warmers.values()].map((w) => w?.close()));
  }

  private aheadOf(at: number): void {
    this.warmedTo = Math.max(this.warmedTo, at + 1);
    while (this.warmedTo < Math.min(this.parts.length, at + 1 + AHEAD_FILES)) {
      const job = this.parts.slice(this.warmedTo, this.warmedTo + JOB_FILES);
      this.warmedTo += job.length;
      const byRoot = new Map<string, string[]>();
      for (const p of job) byRoot.set(p.source.root, [...(byRoot.get(p.source.root) ?? []), p.file.relPath]);
      for (const [root, relPaths] of byRoot) void this.warmerOf(root)?.warm(relPaths);
    }
  }

  private warmerOf(root: string): FileWarmer | null {
    if (!this.warmers.has(root)) this.warmers.set(root, FileWarmer.start(root, 1));
    return this.warmers.get(root) ?? null;
  }
}
