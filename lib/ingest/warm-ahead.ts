import "server-only";
// A lane (lane-job.ts), or a first scan's load on the main thread (scan.ts), reads its files on its
// own thread, and waits on the disk for each one when the tree is cold: the first start after a
// machine's boot. Once its own first reads show that
// (the kernel's count of the process's disk reads grew over two of them: an appended file is read
// on libuv's threads), the files after the one being read are read into the page cache ahead of it
// by a FileWarmer's thread (warm-files.ts), as a first scan's load does: the mixed tree's cold
// start 15.0 s -> 11.3-12.0 s. Until then nothing starts: a warm tree pays two looks at /proc a read,
// for 8 reads of every 1,000.
import { FileWarmer } from "./warm-files";
import { diskReadBytes } from "./disk-reads";

/** Reads judged, and how many of them must have needed the disk (one may be the journal's, or another thread's). */
const SAMPLE_READS = 8;
const COLD_READS = 2;
/**
 * A load judged warm is judged again this many reads on: it reads the newest files first, the ones
 * likeliest to be in the page cache (written since the boot) when older ones are not.
 */
const JUDGE_AGAIN_EVERY = 1_000;
/** Files read ahead of the one being read, at most, in jobs of this many: the thread stays ahead, and a job is soon judged. */
const AHEAD_FILES = 1_000;
const JOB_FILES = 100;
/** Fewer files left than this are not worth a thread's start (0.1-0.2 s): a few big files the kernel reads ahead itself. */
const MIN_FILES_LEFT = 50;

/** A file of a load, where it is opened: its folder (a source's root, or a folder link's target) and its path there. */
export interface WarmablePlace {
  root: string;
  relPath: string;
}

export class WarmAhead<P extends object> {
  private judged = 0;
  private coldReads = 0;
  private judgeAgainAt = JUDGE_AGAIN_EVERY;
  private cold = false;
  private closed = false;
  /** Parts asked of a warmer: the load may insert parts (a channel's rest) among those not yet read. */
  private readonly warmed = new WeakSet<P>();
  /** The next read to look a whole window ahead from. */
  private nextLook = 0;
  private readonly warmers = new Map<string, FileWarmer | null>();

  constructor(
    /** The load's parts in its order (it may insert more, after the part being read). */
    private readonly parts: readonly P[],
    private readonly placeOf: (part: P) => WarmablePlace,
  ) {}

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
    else if (at >= this.judgeAgainAt && this.judged >= SAMPLE_READS) {
      this.judgeAgainAt = at + JUDGE_AGAIN_EVERY;
      [this.judged, this.coldReads] = [0, 0];
    }
    if (this.judged >= SAMPLE_READS) return read();
    const before = diskReadBytes("process");
    try {
      return await read();
    } finally {
      const after = diskReadBytes("process");
      this.judged++;
      // Where a process's disk reads cannot be counted, never again.
      if (before === null) [this.judged, this.judgeAgainAt] = [SAMPLE_READS, Infinity];
      const cold = before !== null && after !== null && after > before && ++this.coldReads >= COLD_READS;
      if (cold && this.parts.length - at - 1 >= MIN_FILES_LEFT) {
        this.cold = true;
        this.judged = SAMPLE_READS;
        this.aheadOf(at);
      }
    }
  }

  /** Stop the warmers' threads; none starts after. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.warmers.values()].map((w) => w?.close()));
  }

  /**
   * Ask for the parts after parts[at] not asked for yet: the next half a job's at each read (a
   * part the load inserts there is soon read), a window's worth at every half a job's reads.
   */
  private aheadOf(at: number): void {
    if (this.closed) return;
    const whole = at >= this.nextLook;
    if (whole) this.nextLook = at + JOB_FILES / 2;
    const end = Math.min(this.parts.length, at + 1 + (whole ? AHEAD_FILES : JOB_FILES / 2));
    const byRoot = new Map<string, string[]>();
    const flush = () => {
      for (const [root, relPaths] of byRoot) void this.warmerOf(root)?.warm(relPaths);
      byRoot.clear();
    };
    let asked = 0;
    for (let i = at + 1; i < end; i++) {
      const part = this.parts[i] as P;
      if (this.warmed.has(part)) continue;
      this.warmed.add(part);
      const { root, relPath } = this.placeOf(part);
      const relPaths = byRoot.get(root) ?? [];
      byRoot.set(root, relPaths);
      relPaths.push(relPath);
      if (++asked % JOB_FILES === 0) flush();
    }
    flush();
  }

  private warmerOf(root: string): FileWarmer | null {
    if (!this.warmers.has(root)) this.warmers.set(root, FileWarmer.start(root, 1));
    return this.warmers.get(root) ?? null;
  }
}
