import "server-only";
// One read of a file over all its chunks (a channel is read 256 KB at a time, each chunk maybe in a
// commit of its own): the ids it has handed on, so that a repeat in a later chunk is kept apart as
// a stream reader keeps one apart within a chunk, and every locator it found, for a replaced file.
import { problemLocator, REPLACING, type DeletedFile, type EntryFileFacts } from "@/lib/journal/entry-rows";
import type { Entry, FileRead } from "@/lib/protocols/entries";
import { duplicateId } from "@/lib/protocols/entry-kit";

export class ReadOfFile {
  /** Each locator handed on, with the byte its value starts at (-1: a value without a place). */
  private readonly firstAt = new Map<string, number>();
  private readonly problems = new Set<string>();
  /** A replaced file's real inode, once a chunk of it is read. */
  private replacedIno: number | null = null;

  /**
   * A chunk's facts as the journal keeps them: a replaced file's with no inode until its re-read is
   * over (replaced()), so a re-read cut short is seen as replaced again and its old entries still leave.
   */
  factsOf(facts: EntryFileFacts, replaced: boolean): EntryFileFacts {
    if (!replaced) return facts;
    this.replacedIno = facts.ino;
    return { ...facts, ino: REPLACING };
  }

  /** Once the read is over, a replaced file's deletion: its old entries leave but those found again, and its inode is kept. */
  replaced(relPath: string): DeletedFile | null {
    return this.replacedIno === null ? null : { relPath, why: "replaced", kept: this.locators(), ino: this.replacedIno };
  }

  /**
   * A chunk's entries, each whose locator an earlier chunk of this read had already kept apart as
   * `id@offset`, with a problem: upstream's ids are short random strings, and a repeat two chunks
   * apart took the first one's row. `from`: where the chunk starts.
   */
  take(read: Pick<FileRead, "entries" | "problems">, from: number): Entry[] {
    read.problems.forEach((_, i) => this.problems.add(problemLocator(from, i)));
    return read.entries.map((e) => {
      const first = this.firstAt.get(e.locator);
      const apart = first !== undefined && first >= 0 && e.span ? { ...e, locator: `${e.locator}@${e.span.start}`, problems: [...e.problems, duplicateId(e.locator, first)] } : e;
      if (!this.firstAt.has(apart.locator)) this.firstAt.set(apart.locator, apart.span?.start ?? -1);
      return apart;
    });
  }

  /** Every locator this read handed on, its problems' too: what a replaced file still holds. */
  private locators(): Set<string> {
    return new Set([...this.firstAt.keys(), ...this.problems]);
  }
}
