import "server-only";
// A scan's files read whole (not channels) are opened and read a few ahead of their turn, so their
// I/O overlaps the parsing and journaling of the ones before them: 20,000 IGNITE v2 files were
// otherwise read one await at a time (8.4-8.6 s of wall against 9.9-11.2 s, the same CPU).
import { readWhole, type WholeFile } from "./entry-files";
import type { EntrySource } from "./entry-ingest";
import type { OrderedFile } from "./entry-order";

const READ_AHEAD_FILES = 8;
/** Only small files, so what is held ahead stays a few MB. */
const READ_AHEAD_MAX_BYTES = 512 * 1024;

export class ReadAhead {
  /** By part, not index: the order may grow in the middle as it is read (a channel's rest). */
  private readonly reads = new Map<OrderedFile<EntrySource>, Promise<WholeFile>>();

  constructor(private readonly files: readonly OrderedFile<EntrySource>[]) {}

  /** Part `i`'s read if it was begun ahead (else undefined); begins those of the parts after it. */
  take(i: number): Promise<WholeFile> | undefined {
    for (let j = i; j < Math.min(this.files.length, i + READ_AHEAD_FILES); j++) {
      const next = this.files[j];
      if (!next || next.tail || this.reads.has(next) || next.source.side.appendOnly(next.file.place) || next.file.size > READ_AHEAD_MAX_BYTES) continue;
      const read = readWhole(next.source.layout, next.file);
      // Awaited in its turn, which sees its failure; one never reached (a stopped load) fails unheard.
      read.catch(() => {});
      this.reads.set(next, read);
    }
    const part = this.files[i];
    const read = part ? this.reads.get(part) : undefined;
    if (part) this.reads.delete(part);
    return read;
  }
}
