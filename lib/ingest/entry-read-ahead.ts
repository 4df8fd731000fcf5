import "server-only";
// How a load reads its entry files: a big load reads the files it will journal next on a worker
// thread, ahead of this thread, which journals them. Reading and parsing are over a quarter of an
// entry fill's CPU (2.8 s for 4 × 20,000 entries), journaling the rest: side by side on two cores
// the fill took 8.2-8.9 s of wall time against 9.8-10.1 s (scripts/bench-entry-fill.ts, two runs
// each); the mixed bench's whole start, its polling sharing the two cores, 13.2-13.9 s against
// 14.0-14.2 s (the two builds in turn, two runs each).
import os from "node:os";
import type { EntryFileFacts, EntryFileRead } from "@/lib/journal/entry-writer";
import { READ_SIDES } from "@/lib/protocols";
import type { Layout, ReadContext } from "@/lib/protocols/layout";
import { RefusedFile } from "@/lib/protocols/safe-open";
import { locate, readEntryFile, readTail, type FileChunk, type ReadPlan } from "./entry-files";
import { oldestDateMs, type OrderedFile } from "./entry-order";
import type { EntrySource } from "./entry-plan";
import { WarmAhead } from "./warm-ahead";
import type { FileReadAhead } from "./worker-jobs";
import { asBuffer, IngestWorkers } from "./workers";

/** From this many files to read a load reads ahead: a worker's start (~100 ms) is more than a small load's reading. */
export const READ_AHEAD_FROM_FILES = 1_000;
/** Bigger files are read as they are journaled, a chunk at a time, never held whole (a 100 MB channel). */
const MAX_FILE_BYTES_AHEAD = 8 * 1024 * 1024;
/** Read ahead of the file being journaled at most: parsed entries take several times their bytes. */
const WINDOW_FILES = 2_000;
const WINDOW_BYTES = 16 * 1024 * 1024;
/** A job's share of the window: the first answers come soon, and the worker stays ahead. */
const JOB_FILES = 200;
const JOB_BYTES = 2 * 1024 * 1024;

type Part = OrderedFile<EntrySource>;
type OnChunk = (chunk: FileChunk, plan: ReadPlan) => Promise<void>;

/** A part asked of the worker: its answer once there. */
interface Asked {
  bytes: number;
  answer: FileReadAhead | null;
  /** Settles with the job (answered or failed). */
  answered: Promise<unknown>;
}

/** A worker's chunk as the journal takes it: its Buffers, which crossed as plain Uint8Arrays, back. */
const revive = ({ chunk, plan }: { chunk: FileChunk; plan: ReadPlan }) => ({
  chunk: { ...chunk, bytes: asBuffer(chunk.bytes), facts: { ...chunk.facts, head: asBuffer(chunk.facts.head) } },
  plan,
});

export class EntryReadAhead {
  private readonly asked = new Map<Part, Asked>();
  /** parts[cursor] is the next part to think of asking for. */
  private cursor = 0;
  private bytesAsked = 0;
  /**
   * The worker has answered once: from then on a part asked of it is waited for (it reads far
   * faster than this thread journals). Before, its cold start (its module load, ~0.15 s built,
   * more from sources) would idle this thread: a part not answered yet is read here.
   */
  private warm = false;
  private failed = false;
  /** Jobs asked and not answered: one at most until the worker is warm (see askFrom). */
  private inFlight = 0;
  /** Parts handed on as the worker read them (tests see that it did). */
  handedOn = 0;

  get warmed(): boolean {
    return this.warm;
  }

  private constructor(
    /** The load's parts in its order (it may insert more, after the part being read). */
    private readonly parts: readonly Part[],
    private readonly context: ReadContext,
    private readonly chunkBytes: number,
    private readonly workers: IngestWorkers | null = null,
    private readonly ahead: (part: Part) => boolean = () => false,
    /** Reading here, as a lane does: the files after the one read are warmed once the tree is found cold (see warm-ahead.ts). */
    private readonly warmAhead: WarmAhead<Part> | null = null,
  ) {}

  /** Every part read here, as it is journaled. */
  static inline(parts: readonly Part[], context: ReadContext, chunkBytes: number): EntryReadAhead {
    return new EntryReadAhead(parts, context, chunkBytes);
  }

  /**
   * Read ahead the parts `unread` says were never read (each is read from its start: nothing
   * journaled to go on from), when there are `fromFiles` of them and a second core to read them on.
   * Else, with `warm`, the files ahead are warmed from a cold disk (warm-ahead.ts).
   */
  static open(parts: readonly Part[], unread: (part: Part) => boolean, context: ReadContext, chunkBytes: number, fromFiles = READ_AHEAD_FROM_FILES, warm = false): EntryReadAhead {
    // A tail is read here (it is small, and first); a read side the worker has not got (a test's) too.
    const ahead = (p: Part) => !p.tail && p.file.size <= MAX_FILE_BYTES_AHEAD && READ_SIDES.includes(p.source.side) && unread(p);
    const many = os.availableParallelism() >= 2 && parts.filter(ahead).length >= fromFiles;
    const workers = many ? IngestWorkers.open(1) : null;
    const warmAhead = warm && !workers ? new WarmAhead(parts, (p) => {
      const { base, rel } = locate(p.source.layout, p.file.relPath);
      return { root: base, relPath: rel };
    }) : null;
    return new EntryReadAhead(parts, context, chunkBytes, workers, ahead, warmAhead);
  }

  /**
   * Read parts[at], handing its chunks to `onChunk` as readEntryFile does: as the worker read them
   * when it has, else here (not read yet, refused or failed there: read here, which says why).
   */
  async read(at: number, known: EntryFileFacts | undefined, onChunk: OnChunk): Promise<void> {
    const part = this.parts[at];
    if (!part) return;
    this.askFrom(at + 1);
    const asked = this.asked.get(part);
    if (asked) {
      this.asked.delete(part);
      this.bytesAsked -= asked.bytes;
    }
    if (asked && !asked.answer && this.warm) await asked.answered;
    const answer = asked?.answer;
    if (answer && "chunks" in answer) {
      this.handedOn++;
      for (const c of answer.chunks.map(revive)) await onChunk(c.chunk, c.plan);
      return;
    }
    const readHere = () => readEntryFile(part.source.layout, part.source.side, part.file, known, this.context, onChunk, this.chunkBytes);
    await (this.warmAhead ? this.warmAhead.around(at, readHere) : readHere());
  }

  /**
   * parts[at], a channel's newest part (see readTail), read here: its read, to journal before the
   * rest, and that rest, placed in the order by the oldest date the tail holds. Without a clean tail
   * the rest is the whole file, at the file's own time; either way it is read from the file's start.
   */
  async tail(at: number, tailBytes: number): Promise<{ tail: EntryFileRead | null; rest: Part }> {
    const { source, file, newestMs } = this.parts[at] as Part;
    const chunk = await readTail(source.layout, source.side, file, this.context, tailBytes).catch((err: unknown) => {
      if (err instanceof RefusedFile) return null;
      throw err;
    });
    const tail = chunk && { relPath: file.relPath, facts: chunk.facts, entries: chunk.read.entries, problems: [], bytes: chunk.bytes, from: chunk.from, whole: false, tailOnly: true };
    const oldest = chunk ? oldestDateMs(chunk.read.entries) : null;
    return { tail, rest: { source, file, newestMs: Math.min(newestMs, oldest ?? Infinity), rest: true } };
  }

  /** Stop the worker; what it still reads is dropped. */
  async close(): Promise<void> {
    await Promise.all([this.workers?.close(), this.warmAhead?.close()]);
  }

  /** Ask the worker for the parts from `from` on that it may read, as far as the window goes. */
  private askFrom(from: number): void {
    if (!this.workers || this.failed) return;
    this.cursor = Math.max(this.cursor, from);
    // Cold, one job at a time: parts read here meanwhile free the window, and jobs asked for them
    // would queue on the worker ahead of the parts this thread then waits for.
    if (!this.warm && this.inFlight > 0) return;
    while (this.cursor < this.parts.length && this.asked.size < WINDOW_FILES && this.bytesAsked < WINDOW_BYTES) {
      const job: Part[] = [];
      let bytes = 0;
      for (; this.cursor < this.parts.length && job.length < JOB_FILES && bytes < JOB_BYTES; this.cursor++) {
        const part = this.parts[this.cursor] as Part;
        if (this.asked.has(part) || !this.ahead(part)) continue;
        job.push(part);
        bytes += part.file.size;
      }
      if (job.length > 0) this.ask(this.workers, job, bytes);
      if (!this.warm) return;
    }
  }

  private ask(workers: IngestWorkers, job: Part[], bytes: number): void {
    const layouts: Layout[] = [];
    const at = new Map<string, number>();
    const files = job.map((p) => {
      if (!at.has(p.source.id)) at.set(p.source.id, layouts.push(p.source.layout) - 1);
      return { layout: at.get(p.source.id) as number, file: p.file };
    });
    const asked = job.map((p): Asked => ({ bytes: p.file.size, answer: null, answered: Promise.resolve() }));
    this.inFlight++;
    const answered = workers.readEntries({ layouts, files, context: this.context, chunkBytes: this.chunkBytes, maxBytes: MAX_FILE_BYTES_AHEAD }).then(
      (answers) => {
        this.warm = true;
        answers.forEach((answer, i) => asked[i] && (asked[i].answer = answer));
      },
      // A worker that failed (or was closed): its parts, and every part after them, are read here.
      () => void (this.failed = true),
    ).finally(() => this.inFlight--);
    job.forEach((p, i) => {
      const a = asked[i] as Asked;
      a.answered = answered;
      this.asked.set(p, a);
    });
    this.bytesAsked += bytes;
  }
}
