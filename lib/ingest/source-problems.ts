import "server-only";
import type { JournalWriter } from "@/lib/journal/writer";
import { describeUnreadable, type UnreadableDir } from "./listing";
import type { Source } from "./sources";

/**
 * A source's folders that could not be read (EACCES, EIO) are its problem, on /api/sources and the
 * overview, next to its own (a root that is gone): its messages there are kept as they were, and
 * the problem clears once a scan reads every folder.
 */
export class SourceProblems {
  /** By source: its last scan's unreadable folders, in words. */
  private readonly unreadable = new Map<string, string>();

  /** The journal's writer now: a journal moved aside or reopened after a fault has a new one. */
  constructor(private readonly writer: () => JournalWriter) {}

  /** The error to record for a source now. */
  errorOf(source: Source): string | null {
    return source.error ?? this.unreadable.get(source.id) ?? null;
  }

  hasUnreadable(sourceId: string): boolean {
    return this.unreadable.has(sourceId);
  }

  /** What a scan of the source found unreadable (nothing: the problem clears). */
  note(source: Source, unreadable: readonly UnreadableDir[]): void {
    const problem = describeUnreadable(unreadable);
    if (problem) this.unreadable.set(source.id, problem);
    else this.unreadable.delete(source.id);
    this.writer().upsertSource({ id: source.id, protocol: source.protocol, root: source.root, error: this.errorOf(source) });
  }
}
