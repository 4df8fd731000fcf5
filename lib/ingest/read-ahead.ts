import "server-only";
// A first fill of many small files (IGNITE v2 keeps one message a file) waited on each file's open,
// stat, reads and close in turn, the main thread idle meanwhile. Reading a few files ahead, while
// the ones before them are parsed and journaled, keeps the I/O off that wait; each file's chunks
// are still handed over in the listing's order, so the journal is written exactly as before.

/** Files read ahead at most, and their listed bytes (a whole read holds its file in memory until taken). */
const AHEAD_FILES = 8;
const AHEAD_BYTES = 16 * 1024 * 1024;

type Outcome<C> = { chunks: C[] } | { error: unknown };

export class ReadAhead<F extends { size: number }, C> {
  private readonly pending = new Map<number, { size: number; outcome: Promise<Outcome<C>> }>();
  private next = 0;
  private bytes = 0;

  constructor(
    private readonly files: readonly F[],
    /** Files worth reading ahead: read whole, in one chunk or a few (not a channel read a chunk at a time). */
    private readonly eligible: (file: F) => boolean,
    private readonly read: (file: F, onChunk: (chunk: C) => Promise<void>) => Promise<void>,
  ) {}

  /** File `i`'s chunks, read ahead; null when it was not (the caller reads it in place). Call in order. */
  take(i: number): Promise<Outcome<C>> | null {
    this.next = Math.max(this.next, i);
    while (this.next < this.files.length && this.next <= i + AHEAD_FILES) {
      const file = this.files[this.next]!;
      if (this.eligible(file)) {
        if (this.pending.size > 0 && this.bytes + file.size > AHEAD_BYTES) break;
        const chunks: C[] = [];
        // Never a rejected promise left waiting: it would be an unhandled rejection until taken.
        const outcome = this.read(file, async (c) => void chunks.push(c)).then(
          () => ({ chunks }),
          (error: unknown) => ({ error }),
        );
        this.pending.set(this.next, { size: file.size, outcome });
        this.bytes += file.size;
      }
      this.next++;
    }
    const got = this.pending.get(i);
    if (!got) return null;
    this.pending.delete(i);
    this.bytes -= got.size;
    return got.outcome;
  }
}
